#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The GNU parallel recipe (tools/cluster/parallel.sh) with local workers
# through the --sshlogin form (-S 2/:) over a directory of profiles: its
# merged summary must be byte for byte the single-machine `summarize DIR`
# put through merge, and autotune and functions on it must answer exactly as
# on the directory. Skipped (77) without GNU parallel.
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
[ $fail -eq 0 ] && echo "ok: $(wc -l <"$tmp/merged.jsonl") runs through GNU parallel -S 2/:, merged, equal to one machine's"
exit $fail
