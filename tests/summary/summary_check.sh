#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Summaries (issue 13): functions and autotune on a summary file give exactly
# what they give on the traces it was made of (stdout, stderr and exit status,
# over options that change the rows); and merge is associative and
# commutative: per-file summaries merged in random groupings and orders give
# the same bytes as one merge of them all.
#   tests/summary/summary_check.sh BIN SYNTH_DIR
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/check_setup.sh"

. tests/summary/common.sh

# same ARGS -- TRACES -- SUMMARY: the command on the traces and on the summary
same() {
	run_both "$@"
	compare "$tmp/a" "$tmp/b" "$tmp/a.err" "$tmp/b.err"
}

# Every real and synthetic trace, one summary each and one of them all.
traces=$(ls testdata/real/*.xplane.pb; find "$synth" -name '*.xplane.pb' -not -path '*/capture/*' | sort)
i=0
for f in $traces; do
	i=$((i + 1))
	"$bin" summarize "$f" -o "$tmp/s$i.jsonl" 2>/dev/null
	case $? in 0|6) ;; *) continue ;; esac
	for o in "--json" "--json --per-device" "--json --time span" "--json --trim 1" "--json --per-file" \
		 "--json --device GPU:1" "--csv --match ^jit_[a-f]"; do
		same functions $o -- "$f" -- "$tmp/s$i.jsonl"
	done
	same autotune --json -- "$f" -- "$tmp/s$i.jsonl"
done
# summaries made with --children and --min-duration, asked for the same
for f in testdata/real/tpu_v6e_inference.xplane.pb "$synth/gpu_host.xplane.pb"; do
	"$bin" summarize --children 'fusion|copy' --min-duration 1us "$f" -o "$tmp/c.jsonl"
	same functions --json --children 'fusion|copy' --min-duration 1us -- "$f" -- "$tmp/c.jsonl"
done
# batches: directories of rounds, their summary as one file
for d in "$synth/autotune" "$synth/diff/base" "$synth/diff/slow" testdata/real; do
	"$bin" summarize "$d" -o "$tmp/d.jsonl" 2>/dev/null
	for o in "--json" "--json --all-devices" "--json --pool-programs" "--csv --trim 0" "--json --per-file"; do
		same autotune $o -- "$d" -- "$tmp/d.jsonl"
	done
	same functions --json -- "$d" -- "$tmp/d.jsonl"
done
# another option than the summary's is refused, not silently answered
"$bin" summarize "$synth/gpu_host.xplane.pb" -o "$tmp/o.jsonl"
"$bin" functions --min-duration 1us "$tmp/o.jsonl" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "--min-duration other than the summary's: not exit 2"; fail=1; }

# merge: per-file summaries of 12 rounds, merged in random groupings
n=0
for f in "$synth"/autotune/*.xplane.pb "$synth"/diff/*/*.xplane.pb; do
	n=$((n + 1))
	"$bin" summarize "$f" -o "$tmp/m$n.jsonl"
done
ls "$tmp"/m*.jsonl | sort >"$tmp/all"
"$bin" merge $(cat "$tmp/all") -o "$tmp/want"
for seed in 1 2 3 4 5 6; do
	# a random order cut into random groups, each group merged, then the groups merged
	awk -v seed=$seed 'BEGIN { srand(seed) } { print rand() "\t" $0 }' "$tmp/all" | sort | cut -f2 >"$tmp/order"
	rm -f "$tmp"/g*.jsonl
	g=0
	while read -r f; do
		[ $g -eq 0 ] || [ "$(awk -v seed=$seed$g 'BEGIN { srand(seed); print (rand() < 0.3) }')" = 1 ] && g=$((g + 1))
		cat "$f" >>"$tmp/g$g.in"
	done <"$tmp/order"
	for x in "$tmp"/g*.in; do "$bin" merge "$x" -o "${x%.in}.jsonl"; rm -f "$x"; done
	# and the groups themselves merged pairwise from the right: (g1 (g2 (g3 ...)))
	acc=""
	for x in $(ls "$tmp"/g*.jsonl | sort -r); do
		if [ -z "$acc" ]; then acc=$x; else "$bin" merge "$x" "$acc" -o "$tmp/acc.jsonl.new" && mv "$tmp/acc.jsonl.new" "$tmp/acc.jsonl"; acc=$tmp/acc.jsonl; fi
	done
	runs=$((runs + 1))
	cmp -s "$tmp/want" "$acc" || { echo "merge: grouping $seed gives other bytes"; fail=1; }
done
# and the merged summary answers as the traces do
same autotune --json -- "$synth/autotune" "$synth"/diff/*/ -- "$tmp/want"

echo "$runs comparisons"
exit $fail
