#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The GNU parallel recipe (tools/cluster/parallel.sh) with local workers
# through the --sshlogin form (-S 2/:) over a directory of profiles: its
# merged summary must be byte for byte the single-machine `summarize DIR`
# put through merge, and autotune and functions on it must answer exactly as
# on the directory; the same over a session of several hosts (runs grouped
# from the summaries as from the profiles). Skipped (77) without GNU parallel.
#   tests/summary/cluster_check.sh BIN SYNTH_DIR
command -v parallel >/dev/null 2>&1 || { echo "skipped: GNU parallel not installed"; exit 77; }
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/check_setup.sh"
# a directory of profiles: the autotune rounds and the diff sets, gzip among them
mkdir -p "$tmp/profiles/a" "$tmp/profiles/b"
cp "$synth"/autotune/*.xplane.pb "$tmp/profiles/a/"
for s in base same slow; do
	for f in "$synth/diff/$s"/*.xplane.pb; do cp "$f" "$tmp/profiles/b/$s-$(basename "$f")"; done
done
gzip "$tmp/profiles/b/slow-round_4.xplane.pb"
XPLANE_STAT=$bin HOME=$tmp tools/cluster/parallel.sh -S 2/: "$tmp/merged.jsonl" "$tmp/profiles" || { echo "parallel.sh failed"; exit 1; }
"$bin" summarize "$tmp/profiles" -o "$tmp/one.jsonl" && "$bin" merge "$tmp/one.jsonl" -o "$tmp/want.jsonl" || exit 1
cmp -s "$tmp/want.jsonl" "$tmp/merged.jsonl" || { echo "the recipe's summary differs from the single-machine one"; fail=1; }
for c in "autotune --json" "functions --json" "autotune --json --all-devices"; do
	# shellcheck disable=SC2086
	"$bin" $c "$tmp/profiles" >"$tmp/a" 2>&1
	# shellcheck disable=SC2086
	"$bin" $c "$tmp/merged.jsonl" >"$tmp/b" 2>&1
	cmp -s "$tmp/a" "$tmp/b" || { echo "$c: the merged summary answers otherwise than the directory"; diff "$tmp/a" "$tmp/b" | head; fail=1; }
done
# A session of several hosts (the synthetic sessions: runs of two hosts, each host's profile summarised
# on its own worker): the merged summaries group into the same runs and give diff's and autotune's answers.
for s in base cur; do
	cp -r "$synth/sessions/$s" "$tmp/$s"
	XPLANE_STAT=$bin HOME=$tmp tools/cluster/parallel.sh -S 2/: "$tmp/$s.jsonl" "$tmp/$s" ||
		{ echo "parallel.sh failed on the session"; exit 1; }
done
for c in "diff --json" "diff --gate 5"; do
	# shellcheck disable=SC2086
	"$bin" $c "$tmp/base" "$tmp/cur" >"$tmp/a" 2>&1
	# shellcheck disable=SC2086
	"$bin" $c "$tmp/base.jsonl" "$tmp/cur.jsonl" >"$tmp/b" 2>&1
	cmp -s "$tmp/a" "$tmp/b" || { echo "$c: the session's summaries answer otherwise"; diff "$tmp/a" "$tmp/b" | head; fail=1; }
done
grep -q 'base 4 runs of 8 profiles, current 4 runs of 8 profiles' "$tmp/b" ||
	{ echo "the session's summaries are not 4 runs of 8 profiles a side"; fail=1; }
"$bin" autotune --id-regex '^jit_(step)' --json "$tmp/base" >"$tmp/a" 2>&1
"$bin" autotune --id-regex '^jit_(step)' --json "$tmp/base.jsonl" >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b" || { echo "autotune: the session's summaries answer otherwise"; diff "$tmp/a" "$tmp/b" | head; fail=1; }
grep -q '"runs":	4' "$tmp/b" || { echo "autotune on the session's summaries: not 4 runs"; fail=1; }
[ $fail -eq 0 ] && echo "ok: $(wc -l <"$tmp/merged.jsonl") runs through GNU parallel -S 2/:, merged, equal to one machine's; a session of 2 hosts too"
exit $fail
