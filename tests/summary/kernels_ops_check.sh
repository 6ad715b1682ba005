#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Summaries for kernels and ops (issue 13): kernels (every --by) and ops
# (over options that change the rows) on a summary file give what they give
# on the traces it was made of: stdout, stderr and exit status. Two
# differences are allowed and checked as such: a kernel row summarised with
# more than 256 instances on a plane keeps a sketch, so its median, p90 and
# p99 may differ, within 0.5% (the JSON marks the row "quantiles":
# "approximate" and a warning says so); and a "no device plane" message
# lists the planes without marking those "(no events)" as ops read them.
# Also: --device narrowing a summary made without it, diff --level kernels
# and ops on traces and summaries, merge staying associative with these
# sections, and a corrupted line refused (exit 3) naming file and line.
#   tests/summary/kernels_ops_check.sh BIN SYNTH_DIR
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/check_setup.sh"

# What may differ, taken out of both outputs: with a sketch in the summary
# ($approx) the quantiles (JSON) and the mark and warning about them; and
# "(no events)" in plane lists.
normalise() {
	awk -v approx="$approx" '
		/"quantiles":[ \t]*"approximate"/ { next }
		approx && /"(median|p90|p99)_ns":/ { next }
		{ print }
	' "$1" | sed -e 's/ (no events)//g' -e 's/"[0-9]* rows*: median, p90 and p99 approximate[^"]*"//' \
		-e '/[0-9]* rows*: median, p90 and p99 approximate/d' -e 's/\[, /[/; s/, \]/]/; s/, , /, /'
}

. tests/summary/common.sh

# same ARGS -- TRACES -- SUMMARY: the command on the traces and on the summary
same() {
	run_both "$@"
	for f in a a.err b b.err; do normalise "$tmp/$f" >"$tmp/$f.n"; done
	# a table or CSV has no mark: rows with a sketch are compared in JSON only
	if [ -n "$approx" ] && ! echo "$args" | grep -q -- --json; then
		cp "$tmp/a.err.n" "$tmp/a.n"
		cp "$tmp/b.err.n" "$tmp/b.n"
	fi
	compare "$tmp/a.n" "$tmp/b.n" "$tmp/a.err.n" "$tmp/b.err.n"
}

# per trace a few options, per batch more
few_kernels="--json|--json --by config|--json --by function --top 2|--csv --by config"
few_ops="--json|--json --by category --sort self|--csv --sort flops|--tsv --sort bytes --top 2"
all_kernels="$few_kernels|--json --by function|--tsv|--copies --csv|--time-unit ns"
all_ops="$few_ops|--json --by category|--json --sort bytes|--time-unit us"

# each TRACES SUMMARY KERNELS_OPTIONS OPS_OPTIONS: both commands on traces and summary
each() {
	each_t=$1 each_s=$2 kernels_opts=$3 ops_opts=$4
	approx=""
	grep -q '"sum_sq"' "$each_s" && approx=1
	IFS='|'
	for o in $kernels_opts; do
		unset IFS
		# shellcheck disable=SC2086
		same kernels $o -- $each_t -- "$each_s"
		IFS='|'
	done
	for o in $ops_opts; do
		unset IFS
		# shellcheck disable=SC2086
		same ops $o -- $each_t -- "$each_s"
		IFS='|'
	done
	unset IFS
}

# Every real and synthetic trace, one summary each.
traces=$(ls testdata/real/*.xplane.pb; find "$synth" -name '*.xplane.pb' | sort)
i=0 sketched=0
for f in $traces; do
	i=$((i + 1))
	"$bin" summarize "$f" -o "$tmp/s$i.jsonl" 2>/dev/null
	case $? in 0|6) ;; *) continue ;; esac
	grep -q '"sum_sq"' "$tmp/s$i.jsonl" && sketched=$((sketched + 1))
	each "$f" "$tmp/s$i.jsonl" "$few_kernels" "$few_ops"
done
# the synthetic trace of a kernel of 300 instances must have given a sketch
[ $sketched -gt 0 ] || { echo "no summary kept a sketch: the approximate rows went untested"; fail=1; }
# batches: a directory, its summary as one file
for d in testdata/real "$synth" "$synth/diff/base"; do
	"$bin" summarize "$d" -o "$tmp/d.jsonl" 2>/dev/null
	each "$d" "$tmp/d.jsonl" "$all_kernels" "$all_ops"
done
# --device: a summary made with it; and one made without it, narrowed (the real
# traces: their reader warnings, which narrowing cannot narrow, are none)
for dev in gpu:1 TPU:1; do
	"$bin" summarize --device $dev testdata/real -o "$tmp/dev.jsonl" 2>/dev/null
	"$bin" summarize testdata/real -o "$tmp/all.jsonl" 2>/dev/null
	for s in "$tmp/dev.jsonl" "$tmp/all.jsonl"; do
		approx=""
		same kernels --json --device $dev -- testdata/real -- "$s"
		same kernels --by config --device $dev -- testdata/real -- "$s"
		same ops --json --device $dev -- testdata/real -- "$s"
		same ops --by category --device $dev -- testdata/real -- "$s"
	done
	# another --device than the summary's is refused
	"$bin" kernels --device gpu:7 "$tmp/dev.jsonl" >/dev/null 2>&1
	[ $? -eq 2 ] || { echo "kernels --device other than the summary's: not exit 2"; fail=1; }
done

# diff --level kernels and ops: the same on traces and on their summaries
approx=""
"$bin" summarize "$synth/diff/base" -o "$tmp/base.jsonl"
"$bin" summarize "$synth/diff/slow" -o "$tmp/slow.jsonl"
"$bin" summarize testdata/real/mi300x_jax_gemm.xplane.pb -o "$tmp/g.jsonl"
"$bin" summarize testdata/real/mi300x_jax_conv.xplane.pb -o "$tmp/c.jsonl"
for l in kernels ops; do
	for pair in "$synth/diff/base $synth/diff/slow $tmp/base.jsonl $tmp/slow.jsonl" \
		    "testdata/real/mi300x_jax_gemm.xplane.pb testdata/real/mi300x_jax_conv.xplane.pb $tmp/g.jsonl $tmp/c.jsonl" \
		    "testdata/real testdata/real $tmp/all.jsonl $tmp/all.jsonl"; do
		set -- $pair
		"$bin" diff --json --level $l "$1" "$2" >"$tmp/a" 2>"$tmp/a.err"
		ra=$?
		"$bin" diff --json --level $l "$3" "$4" >"$tmp/b" 2>"$tmp/b.err"
		rb=$?
		runs=$((runs + 1))
		if [ $ra -ne $rb ] || ! cmp -s "$tmp/a" "$tmp/b" || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
			echo "differs: diff --level $l $1 $2 (exit $ra) and $3 $4 (exit $rb)"
			diff "$tmp/a" "$tmp/b" | head -6
			fail=1
		fi
	done
done
# a trace against its own summary with sketches: every row the same
big=$(find "$synth" -name 'gpu_many_copies.xplane.pb')
"$bin" summarize "$big" -o "$tmp/big.jsonl"
"$bin" diff --level kernels --csv "$big" "$tmp/big.jsonl" >"$tmp/a" 2>"$tmp/a.err"
rc=$?
runs=$((runs + 1))
if [ $rc -ne 0 ] || grep -v '^key,' "$tmp/a" | grep -qv ',same,' || ! grep -q 'approximate' "$tmp/a.err"; then
	echo "diff --level kernels of a trace and its sketched summary: not all same, or not said approximate"
	cat "$tmp/a" "$tmp/a.err" | head -6
	fail=1
fi

# merge: per-file summaries (kernels and ops sections) merged in two groupings and
# orders give the same bytes, and kernels and ops on the merge answer as on the traces
n=0
for f in testdata/real/*.xplane.pb "$synth"/gpu_*.xplane.pb "$synth"/ops_*.xplane.pb; do
	n=$((n + 1))
	"$bin" summarize "$f" -o "$tmp/m$n.jsonl" 2>/dev/null
done
set -- $(ls "$tmp"/m*.jsonl | sort)
"$bin" merge "$@" -o "$tmp/want"
"$bin" merge "$1" "$2" "$3" -o "$tmp/x1"
shift 3
"$bin" merge "$@" -o "$tmp/x2"
"$bin" merge "$tmp/x2" "$tmp/x1" -o "$tmp/got"
runs=$((runs + 1))
cmp -s "$tmp/want" "$tmp/got" || { echo "merge: another grouping gives other bytes"; fail=1; }
# (the traces in the merge's order: by path)
approx=1
ordered=$(ls testdata/real/*.xplane.pb "$synth"/gpu_*.xplane.pb "$synth"/ops_*.xplane.pb | LC_ALL=C sort)
# shellcheck disable=SC2086
same kernels --json --by function -- $ordered -- "$tmp/want"
# shellcheck disable=SC2086
same ops --json --by category -- $ordered -- "$tmp/want"

# a corrupted line: exit 3, the file, line and field named, for kernels and ops alike
"$bin" summarize testdata/real/mi300x_jax_gemm.xplane.pb testdata/real/tpu_v6e_inference.xplane.pb -o "$tmp/ok.jsonl"
while IFS='|' read -r edit want; do
	sed -e "$edit" "$tmp/ok.jsonl" >"$tmp/bad.jsonl"
	cmp -s "$tmp/ok.jsonl" "$tmp/bad.jsonl" && { printf '%s\n' "the edit $edit changed nothing"; fail=1; continue; }
	for c in kernels ops; do
		"$bin" $c "$tmp/bad.jsonl" >/dev/null 2>"$tmp/err"
		rc=$?
		runs=$((runs + 1))
		if [ $rc -ne 3 ] || ! grep -qF "xplane-stat: '$tmp/bad.jsonl' line 1: $want" "$tmp/err"; then
			printf '%s\n' "$c on a line edited by $edit: exit $rc, $(cat "$tmp/err"), not '$want'"
			fail=1
		fi
	done
done <<'EDITS'
s/"samples":\[/"samples":[-1,/|kernels plane 0 row 0: not an integer in range: samples
s/"occurrences":[0-9]*/"occurrences":0/|ops plane 0 row 0: not an integer in range: occurrences
s/"busy_ps":\([0-9]*\),"bad_config/"busy_ps":"99\1","bad_config/|kernels plane 0: more than the kernels' time: busy_ps
s/"peak_flops":[0-9.e+]*/"peak_flops":-1/|ops plane 0: not a finite number >= 0: peak_flops
EDITS

echo "$runs comparisons"
exit $fail
