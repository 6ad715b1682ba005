#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Summaries of many profiles on many machines with GNU parallel, merged into one:
#   tools/cluster/parallel.sh [-S SSHLOGINS] [-j JOBS] OUT.jsonl DIR|FILE...
# Map: one `xplane-stat summarize` per profile, run by GNU parallel on the
# machines -S names (its --sshlogin syntax: "4/node1,4/node2"; ":" is this
# machine), each writing the summary beside the others in a work directory;
# reduce: `xplane-stat merge` over groups of 256 summaries, then over the
# groups (merge is associative: the result does not depend on the grouping).
# The profiles' paths must mean the same on every machine (a shared file
# system, as on most clusters); otherwise give parallel --transferfile and
# --return yourself. Exit status: 0, or the first failing step's. Every
# summary is written under a temporary name and renamed, so a killed job
# leaves nothing half written; a rerun over the same profiles redoes only
# the missing summaries (over other profiles it starts again).
set -eu
logins=: jobs=
while getopts S:j: o; do
	case $o in
	S) logins=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) echo "usage: $0 [-S SSHLOGINS] [-j JOBS] OUT.jsonl DIR|FILE..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: $0 [-S SSHLOGINS] [-j JOBS] OUT.jsonl DIR|FILE..." >&2; exit 2; }
out=$1
shift
bin=${XPLANE_STAT:-xplane-stat}
command -v parallel >/dev/null 2>&1 || { echo "$0: GNU parallel is not installed (Debian: apt-get install parallel)" >&2; exit 2; }
work=$out.parts
mkdir -p "$work"

# The profiles, as xplane-stat would find them in a directory: sorted, one per line.
find "$@" \( -name '*.xplane.pb' -o -name '*.xplane.pb.gz' \) -type f | LC_ALL=C sort >"$work/inputs.new"
[ -s "$work/inputs.new" ] || { echo "$0: no *.xplane.pb or *.xplane.pb.gz among the inputs" >&2; exit 4; }
# Summaries are named by their line in the list: another list makes them other profiles'.
if ! cmp -s "$work/inputs.new" "$work/inputs" 2>/dev/null; then
	rm -rf "$work/map" "$work/groups"
fi
mv "$work/inputs.new" "$work/inputs"
mkdir -p "$work/map"
rm -rf "$work/groups"
mkdir -p "$work/groups"

# Map. {#} numbers the job; the summary is named by it, so reruns find it.
# shellcheck disable=SC2016
parallel --will-cite --halt now,fail=1 ${jobs:+-j "$jobs"} -S "$logins" \
	'[ -s '"$work"'/map/{#}.jsonl ] || '"$bin"' summarize -j 1 {} -o '"$work"'/map/{#}.jsonl' <"$work/inputs"

# Reduce: a tree of merges.
ls "$work"/map/*.jsonl | LC_ALL=C sort | split -l 256 - "$work/groups/list."
for g in "$work"/groups/list.*; do
	# shellcheck disable=SC2046
	"$bin" merge $(cat "$g") -o "$work/groups/${g##*/list.}.jsonl"
done
"$bin" merge "$work"/groups/*.jsonl -o "$out"
rm -rf "$work"
