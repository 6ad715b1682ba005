#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Summaries of a directory of profiles as a Slurm job array, then one merge.
#   tools/cluster/slurm.sh PROFILES_DIR OUT.jsonl
# submits two jobs: an array with one task per profile (each summarises its
# profile, where it lies, into OUT.jsonl.parts/TASK.jsonl), and a merge that
# runs when every task succeeded (--dependency=afterok). Slurm schedules,
# retries (sbatch --requeue) and reports; nothing here does. PROFILES_DIR must
# be on a file system the nodes share. Set XPLANE_STAT if xplane-stat is not
# on the nodes' PATH, SBATCH_ARGS for partition, account or time limits.
set -eu
dir=${1:?usage: slurm.sh PROFILES_DIR OUT.jsonl}
out=${2:?usage: slurm.sh PROFILES_DIR OUT.jsonl}
bin=${XPLANE_STAT:-xplane-stat}
parts=$out.parts
mkdir -p "$parts"
find "$dir" \( -name '*.xplane.pb' -o -name '*.xplane.pb.gz' \) -type f | LC_ALL=C sort >"$parts/inputs"
n=$(wc -l <"$parts/inputs")
[ "$n" -gt 0 ] || { echo "slurm.sh: no profiles in $dir" >&2; exit 4; }
# One task per profile: line SLURM_ARRAY_TASK_ID + 1 of the list.
map=$(sbatch --parsable ${SBATCH_ARGS:-} --array=0-$((n - 1)) --cpus-per-task=1 --job-name=xps-map \
	--wrap "f=\$(sed -n \"\$((SLURM_ARRAY_TASK_ID + 1))p\" '$parts/inputs') && \
'$bin' summarize -j 1 \"\$f\" -o '$parts'/\$SLURM_ARRAY_TASK_ID.jsonl")
sbatch ${SBATCH_ARGS:-} --dependency=afterok:"$map" --job-name=xps-merge \
	--wrap "'$bin' merge '$parts'/[0-9]*.jsonl -o '$out'"
echo "submitted map array $map ($n tasks) and its merge into $out"
