#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The library as a program outside this tree uses it: `make install` (cmake
# --install) into a DESTDIR in a scratch directory; examples/functions.c
# compiled against the installed header, shared library and xplane-stat.pc
# (pkg-config) and run with the installed library; its output compared with
# `xplane-stat functions --json` of the same traces: every key but the
# warnings, every function's counts and times, exactly. Also: the soname and
# its links, and that the library exports the public API (xps_*) alone.
# Skipped (77) without pkg-config, a C compiler, python3 or binutils.
#   [CC=cc] [XPS_EXAMPLE_CFLAGS=...] example_check.sh SOURCE_DIR BUILD_DIR PREFIX BINDIR LIBDIR INCLUDEDIR VERSION
# (ctest passes the build's compiler and C flags: a sanitizer build's library needs its runtime.)
set -u
src=$1 build=$2 prefix=$3 bindir=$4 libdir=$5 includedir=$6 version=$7
CC=${CC:-cc}
for tool in pkg-config "$CC" python3 readelf nm; do
	command -v "$tool" >/dev/null 2>&1 || { echo "skipped: $tool not installed"; exit 77; }
done
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
DESTDIR=$dest cmake --install "$build" >"$dest/install.log" 2>&1 || { cat "$dest/install.log"; exit 1; }
root=$dest$prefix
lib=$root/$libdir
major=${version%%.*}
fail=0

# The soname chain a packager expects, and nothing but xps_* exported.
[ -f "$root/$includedir/xplane_stat.h" ] || { echo "no $root/$includedir/xplane_stat.h"; fail=1; }
[ "$(readlink "$lib/libxplane-stat.so")" = "libxplane-stat.so.$major" ] &&
	[ "$(readlink "$lib/libxplane-stat.so.$major")" = "libxplane-stat.so.$version" ] ||
	{ echo "not libxplane-stat.so -> .so.$major -> .so.$version in $lib:"; ls -l "$lib"; fail=1; }
readelf -d "$lib/libxplane-stat.so.$version" | grep -q "(SONAME).*\[libxplane-stat.so.$major\]" ||
	{ echo "libxplane-stat.so.$version has no soname libxplane-stat.so.$major"; fail=1; }
others=$(nm -D --defined-only "$lib/libxplane-stat.so.$version" | awk '$3 !~ /^xps_/ { print $3 }')
[ -z "$others" ] || { echo "libxplane-stat exports more than the public API:" $others; fail=1; }

# Built as another project would: pkg-config finds the staged .pc, the sysroot its paths.
export PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
[ "$(pkg-config --modversion xplane-stat 2>&1)" = "$version" ] ||
	{ echo "pkg-config --modversion xplane-stat: $(pkg-config --modversion xplane-stat 2>&1), not $version"; exit 1; }
flags=$(pkg-config --cflags --libs xplane-stat) || exit 1
# shellcheck disable=SC2086 # the flags are words
"$CC" -std=c99 -Wall -Wextra -pedantic -Werror ${XPS_EXAMPLE_CFLAGS:-} -o "$dest/functions" \
	"$src/examples/functions.c" $flags ||
	{ echo "examples/functions.c does not build with: $flags"; exit 1; }
export LD_LIBRARY_PATH="$lib"
if command -v ldd >/dev/null 2>&1; then
	ldd "$dest/functions" | grep -q "libxplane-stat.so.$major => $lib/" ||
		{ echo "the example does not load the installed library:"; ldd "$dest/functions"; fail=1; }
fi

# Errors come back as a message, not a crash or a print from the library.
"$dest/functions" "$dest/no-such.xplane.pb" >"$dest/out" 2>"$dest/err"
rc=$?
[ $rc -eq 1 ] && grep -q "no-such.xplane.pb" "$dest/err" && [ ! -s "$dest/out" ] ||
	{ echo "a missing trace: exit $rc, stderr: $(cat "$dest/err")"; fail=1; }

# One JAX GPU trace; a TPU one (20-digit program ids, fingerprints); two pooled.
real=$src/testdata/real
for set in "mi300x_jax_gemm" "tpu_v6e_inference" "mi300x_jax_conv mi300x_jax_elementwise"; do
	files=
	for f in $set; do files="$files $real/$f.xplane.pb"; done
	# shellcheck disable=SC2086
	"$dest/functions" $files >"$dest/example.json" 2>"$dest/example.err" ||
		{ echo "$set: the example failed: $(cat "$dest/example.err")"; fail=1; continue; }
	# shellcheck disable=SC2086
	"$root/$bindir/xplane-stat" functions --json $files >"$dest/cli.json" ||
		{ echo "$set: xplane-stat functions --json failed"; fail=1; continue; }
	python3 - "$dest/example.json" "$dest/cli.json" "$set" <<'PY' || fail=1
import json, sys
ex, cli, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
bad = []
def value_same(a, b):
    # The example prints every digit of a double (%.17g); the command (cJSON)
    # prints 15 significant digits when they give the double back to within
    # an epsilon, else 17: the example's double printed so is the command's.
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and (
            a == b or float(f"{a:.15g}") == b)
    return type(a) is type(b) and a == b
def same(where, a, b):
    # every key of the command's object, and no other
    for k in sorted(set(a) | set(b)):
        if k not in a or k not in b:
            bad.append(f"{where}{k}: only in the {'example' if k in a else 'command'}")
        elif k != "functions" and not value_same(a[k], b[k]):
            bad.append(f"{where}{k}: example {a[k]!r}, command {b[k]!r}")
for k in ("schema_version", "command", "warnings"):
    cli.pop(k, None)
same("", ex, cli)
fe, fc = ex.get("functions", []), cli.get("functions", [])
if len(fe) != len(fc):
    bad.append(f"functions: {len(fe)} rows in the example, {len(fc)} from the command")
for i, (a, b) in enumerate(zip(fe, fc)):
    same(f"functions[{i}] ({b.get('name')}).", a, b)
if not fc:
    bad.append("the command found no function: not a test")
for b in bad[:20]:
    print(f"{name}: {b}")
if not bad:
    print(f"{name}: {len(fc)} functions, the same numbers")
sys.exit(1 if bad else 0)
PY
done

# The Python package installed beside the library: its _paths.py names the
# installed library's folder, and it gives the command's numbers.
pydir=$(ls -d "$root"/lib/python3.*/dist-packages 2>/dev/null | head -n 1)
case "${XPS_EXAMPLE_CFLAGS:-}" in
*-fsanitize*)
	# a sanitizer build's library cannot be loaded into python3 (its runtime must come first)
	echo "the installed Python package: not imported in a sanitizer build"
	pydir=skip ;;
esac
if [ "$pydir" = skip ]; then
	:
elif [ -z "$pydir" ]; then
	echo "no Python package under $root/lib/python3.*/dist-packages"
	fail=1
else
	grep -q "^LIBDIR = \"$prefix/$libdir\"\$" "$pydir/xplane_stat/_paths.py" ||
		{ echo "$pydir/xplane_stat/_paths.py does not name $prefix/$libdir"; fail=1; }
	PYTHONPATH=$pydir XPLANE_STAT_LIBRARY=$lib/libxplane-stat.so.$major python3 - \
		"$real/mi300x_jax_gemm.xplane.pb" "$root/$bindir/xplane-stat" "$pydir" <<'PY' || fail=1
import json, subprocess, sys
import xplane_stat
row = xplane_stat.functions(sys.argv[1])[0]
cli = json.loads(subprocess.run([sys.argv[2], "functions", "--json", sys.argv[1]], capture_output=True).stdout)
want = cli["functions"][0]
if not xplane_stat.__file__.startswith(sys.argv[3]) or row["name"] != want["name"] or \
        row["total_ns"] != want["total_ns"] or row["executions"] != want["executions"]:
    print(f"the installed Python package: {row} against {want} ({xplane_stat.__file__})")
    sys.exit(1)
print(f"the installed Python package: {row['name']} {row['total_ns']} ns, as the command")
PY
fi
exit $fail
