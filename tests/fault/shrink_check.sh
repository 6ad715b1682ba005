# SPDX-License-Identifier: Apache-2.0
# An input that shrinks while it is read (a profiler still writing it, rsync
# --inplace; issue 29) is an error naming it, never SIGBUS, never a number
# made of the zeros, never a temporary output left behind (RELIABILITY.md,
# the catalogue). The unchanged binary reads the file; a preload library
# (shrink_preload.c, a test helper only) cuts it at a chosen moment: right
# after it is mapped, or when the output's temporary file is made (export:
# after the first read, before its lazy planes). A binary the preload cannot
# reach (static, or a runtime that refuses it) is skipped (exit 77).
# Usage: shrink_check.sh XPLANE_STAT PRELOAD_SO REAL_TRACE OTHER_TRACE
bin=$1
preload=$2
real=$3
other=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$tmp" || exit 1
# a sanitizer runtime wants to come first; the preload is not instrumented
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
msg="xplane-stat: 't.pb': changed while being read (it shrank: is it still being written?)"
skipped="xplane-stat: warning: 't.pb': changed while being read (it shrank: is it still being written?) (input skipped)"
cut=300000

bad() {
	echo "FAIL: $*"
	fail=1
}

# shrink AT TO CMD...: runs CMD with t.pb (a fresh copy of the trace) cut to TO bytes at AT
shrink() {
	at=$1 to=$2
	shift 2
	cp "$real" t.pb
	XPS_TEST_SHRINK=t.pb XPS_TEST_SHRINK_TO=$to XPS_TEST_SHRINK_AT=$at LD_PRELOAD=$preload \
		"$@" >out 2>err
	rc=$?
	[ "$(wc -c <t.pb)" -eq "$to" ] || bad "$*: the preload did not cut the file ($(wc -c <t.pb) bytes)"
}

# expect_changed AT CMD...: exit 3, the one message, nothing on stdout, no file but the trace's
expect_changed() {
	at=$1
	shift
	shrink "$at" $cut "$@"
	[ $rc -eq 3 ] || bad "$* (cut at $at) exited $rc, not 3: $(head -c 300 err)"
	[ "$(cat err)" = "$msg" ] || bad "$* (cut at $at): stderr is not the message: $(head -c 300 err)"
	[ ! -s out ] || bad "$* (cut at $at) printed to stdout: $(head -c 200 out)"
	left=$(ls | grep -v -x -e t.pb -e out -e err -e s.jsonl -e other.pb)
	[ -z "$left" ] || bad "$* (cut at $at) left files: $left"
	rm -f $left
}

# The preload reaches this binary: cut to the file's own size, the answer is the trace's.
size=$(wc -c <"$real")
"$bin" functions --json "$real" >want 2>/dev/null
shrink map "$size" "$bin" functions --json t.pb
if [ $rc -ne 0 ] || [ "$(wc -c <t.pb)" -ne "$size" ] || ! cmp -s want out; then
	echo "skipped: the preload library does not run with this binary (exit $rc): $(head -c 300 err)"
	exit 77
fi
rm -f want
cp "$real" t.pb
XPS_TEST_SHRINK=t.pb XPS_TEST_SHRINK_TO=$cut LD_PRELOAD=$preload "$bin" planes t.pb >/dev/null 2>&1
if [ "$(wc -c <t.pb)" -ne $cut ]; then
	echo "skipped: the preload library does not reach this binary's mappings"
	exit 77
fi

# 1. Every command reading the trace, cut before it reads a byte.
for c in functions "functions --json" kernels ops overview memory compile events "events --list" planes \
	"autotune --compat=ejkernel" summarize "report -o r.html" "export -o x.json" "export -o x.json.gz" \
	"export -o x.pftrace"; do
	# shellcheck disable=SC2086 # the command's words
	expect_changed map "$bin" $c t.pb
done

# 2. export's lazy reads: cut once the temporary output exists (every format, and streamed .pftrace),
# past the first page: what a selected plane reads again (its events' stats) lies past the cut too.
cut=4096
for o in x.json x.json.gz x.pftrace; do
	expect_changed output "$bin" export -o $o t.pb
	expect_changed output "$bin" export --device TPU:0 -o $o t.pb
done
cut=300000

# 3. Among several inputs it is skipped like any unreadable one (exit 6); the answer is the other's.
cp "$other" other.pb
"$bin" functions --json other.pb >want 2>/dev/null
for c in functions kernels overview events summarize; do
	shrink map $cut "$bin" $c other.pb t.pb
	[ $rc -eq 6 ] || bad "$c other.pb t.pb exited $rc, not 6: $(head -c 300 err)"
	grep -q -x -F "$skipped" err ||
		bad "$c other.pb t.pb: no warning skipping it: $(head -c 300 err)"
done
shrink map $cut "$bin" functions --json other.pb t.pb
python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(a["functions"] != b["functions"])' want out 2>/dev/null ||
	bad "functions other.pb t.pb: the rows are not those of other.pb alone"

# 4. A summary file cut under merge: the same message, no output file.
"$bin" summarize -o s.jsonl "$real" "$other" "$real" "$other" "$real" 2>/dev/null
cp s.jsonl t.pb.src
real=t.pb.src
shrink map 4096 "$bin" merge -o m.jsonl t.pb
[ $rc -eq 3 ] || bad "merge of a cut summary exited $rc, not 3: $(head -c 300 err)"
[ "$(cat err)" = "$msg" ] || bad "merge of a cut summary: $(head -c 300 err)"
[ ! -e m.jsonl ] && [ -z "$(ls | grep tmp-)" ] || bad "merge of a cut summary left an output: $(ls)"

[ $fail -eq 0 ] && echo "shrink_check: ok"
exit $fail
