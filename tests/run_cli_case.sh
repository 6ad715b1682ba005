#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs one CLI golden case: tests/cli/<command>/<case>.cmd holds a shell command
# line in which `xplane-stat` is the binary under test and $SYNTH the directory
# of generated synthetic traces. It runs from the repository root in a scratch
# $TMP. Expected: <case>.out (stdout, exact), <case>.rc (exit status) and
# <case>.err (stderr, exact; empty when the command writes nothing there, so a
# new warning cannot pass unnoticed). A case without its .err is an error.
# With UPDATE=1 the expectations are rewritten from the actual run
# (tools/update-golden.sh) — review the diff.
set -u
case_file=$1 bin=$2 SYNTH=$3
base=${case_file%.cmd}
root=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export SYNTH TMP
export NO_COLOR=1 LC_ALL=C

xplane_stat() { "$bin" "$@"; }
# A case that needs a tool the machine lacks is skipped (ctest: SKIP_RETURN_CODE 77).
require() { command -v "$1" >/dev/null 2>&1 || { echo "skipped: $1 not installed"; exit 77; }; }

cmd=$(sed 's/xplane-stat/xplane_stat/g' "$case_file")
cd "$root" || exit 1
( eval "$cmd" ) >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
[ $rc -eq 77 ] && exit 77
# Scratch paths differ per run: show them as $TMP, and the build's synthetic traces as $SYNTH.
for f in stdout stderr; do
	sed -e "s|$TMP|\$TMP|g" -e "s|$SYNTH|\$SYNTH|g" "$TMP/$f" >"$TMP/$f.n" && mv "$TMP/$f.n" "$TMP/$f"
done

if [ "${UPDATE:-0}" = 1 ]; then
	cp "$TMP/stdout" "$base.out"
	echo "$rc" >"$base.rc"
	cp "$TMP/stderr" "$base.err"
	exit 0
fi

fail=0
want_rc=$(cat "$base.rc" 2>/dev/null || echo 0)
if [ "$rc" != "$want_rc" ]; then
	echo "exit status $rc, expected $want_rc"
	fail=1
fi
if ! diff -u "$base.out" "$TMP/stdout"; then
	echo "stdout differs from $base.out"
	fail=1
fi
if [ ! -f "$base.err" ]; then
	echo "missing $base.err (expected stderr; empty when there is none): run tools/update-golden.sh $case_file"
	fail=1
elif ! diff -u "$base.err" "$TMP/stderr"; then
	echo "stderr differs from $base.err"
	fail=1
fi
[ $fail -eq 0 ] || { echo "--- stderr:"; cat "$TMP/stderr"; }
exit $fail
