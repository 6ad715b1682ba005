#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The result must not depend on the reader, on lazy planes or on -j: every
# command's JSON (and exit status) with the reference reader (protobuf-c,
# every plane decoded, one thread) must equal the wire reader's (device
# planes first, the rest on demand) with 1, 2 and 7 threads, on every real,
# bad and synthetic trace, one at a time and as batches. Error messages are
# compared without the wire reader's "(at byte N: why)", which protobuf-c
# cannot say.
#   tests/same_result.sh BIN SYNTH_DIR
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/check_setup.sh"

check() {	# check ARGS...: the same stdout and status for every reader and -j
	"$bin" "$@" --reader=protobuf-c -j 1 >"$tmp/ref" 2>"$tmp/ref.err"
	want=$?
	for v in "-j 1" "-j 2" "-j 7"; do
		# shellcheck disable=SC2086
		{ "$bin" "$@" --reader=wire $v 2>"$tmp/got.err"; echo $? >"$tmp/rc"; } | sed 's/ (at byte [^)]*)//' >"$tmp/got"
		got=$(cat "$tmp/rc")
		sed -i 's/ (at byte [^)]*)//' "$tmp/got.err"
		runs=$((runs + 1))
		if [ $got -ne $want ] || ! cmp -s "$tmp/ref" "$tmp/got" || ! cmp -s "$tmp/ref.err" "$tmp/got.err"; then
			echo "differs: $* (wire $v: exit $got, protobuf-c: exit $want)"
			diff "$tmp/ref" "$tmp/got" | head -10
			diff "$tmp/ref.err" "$tmp/got.err" | head -10
			fail=1
		fi
	done
}

files=$(ls testdata/real/*.xplane.pb testdata/bad/* 2>/dev/null; find "$synth" -name '*.xplane.pb' | sort)
for f in $files; do
	check functions --json "$f"
	check functions --json --per-device --children '.' "$f"
	check functions --json --device gpu:1 "$f"
	check autotune --json "$f"
	check planes --json "$f"
	check memory --json --peak --timeline "$f"
	check compile --json "$f"
	check export --format json -o - "$f"
	check export --format pftrace -o - "$f"
done
for d in testdata/real "$synth" "$synth/autotune"; do
	check functions --json "$d"
	check functions --per-file "$d"
	check autotune --per-file "$d"
	check autotune --json --all-devices "$d"
	check autotune --compat=ejkernel --json "$d"
done
check functions --json testdata/real testdata/bad "$synth"
check memory --json --peak testdata/real "$synth"
check compile --json testdata/real "$synth"
echo "$runs comparisons"
exit $fail
