#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs libFuzzer harnesses one after another, each for SECONDS:
#   fuzz/run.sh BUILD_DIR SECONDS [HARNESS...]    (default: every harness)
# BUILD_DIR is a clang build configured with XPS_FUZZ=ON (make fuzz does it).
# Each harness grows its own corpus in BUILD_DIR/fuzz/corpus/<harness>, seeded
# from testdata/, the synthetic and crafted traces and fuzz/findings/; a crash
# lands in BUILD_DIR/fuzz/artifacts/. Prints one line per harness (executions,
# coverage, features, corpus) and exits 1 if any harness failed.
set -u
build=${1:?usage: fuzz/run.sh BUILD_DIR SECONDS [HARNESS...]}
secs=${2:?usage: fuzz/run.sh BUILD_DIR SECONDS [HARNESS...]}
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
harnesses=${*:-read_pbc read_wire diff pipeline gzip summary append hlo}
fz=$build/fuzz
mkdir -p "$fz/artifacts" "$fz/logs" "$fz/seeds/gzip"

# The gzip harness starts from gzip members: the synthetic and crafted traces, compressed.
for f in "$build"/synth/*.xplane.pb "$build"/bad/*.xplane.pb; do
	[ -f "$f" ] || continue
	g=$fz/seeds/gzip/$(basename "$f").gz
	[ -f "$g" ] || gzip -9nc "$f" >"$g" || exit 1
done

fail=0
for h in $harnesses; do
	bin=$fz/fuzz_$h
	[ -x "$bin" ] || { echo "fuzz/run.sh: $bin not built (make fuzz builds it)" >&2; exit 1; }
	corpus=$fz/corpus/$h
	mkdir -p "$corpus"
	seeds="testdata $build/synth $build/bad fuzz/findings"
	[ "$h" = gzip ] && seeds="$seeds $fz/seeds/gzip"
	[ -d "fuzz/seeds/$h" ] && seeds="$seeds fuzz/seeds/$h"
	log=$fz/logs/$h.log
	# One process, one job at a time: the machine is shared. Inputs over 256 KiB are
	# cut (the big real traces still seed their first planes); 10 s for one input is a hang.
	# shellcheck disable=SC2086
	# FUZZ_SEED fixes libFuzzer's random choices (make test's smoke run: the same
	# inputs on every machine, a faster one only gets further); 0 is random.
	nice -n 19 "$bin" -seed="${FUZZ_SEED:-0}" -max_total_time="$secs" -timeout=10 -max_len=262144 -rss_limit_mb=2048 \
		-dict=fuzz/xplane.dict -print_final_stats=1 -artifact_prefix="$fz/artifacts/$h-" \
		"$corpus" $seeds >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p')
	printf '%-10s %5ss  %10s execs  cov %5s  ft %6s  corpus %s' "$h" "$secs" "${execs:-?}" \
		"${cov:-?}" "${ft:-?}" "${corp:-?}"
	if [ $rc -ne 0 ]; then
		echo "  FAILED (exit $rc), see $log:"
		grep -E 'ERROR|runtime error|Test unit written|abort|differ|broken|rejects|accepts' "$log" | head -8
		fail=1
	else
		echo
	fi
done
exit $fail
