#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Regenerates the expected output of CLI golden cases after an intended change:
#   tools/update-golden.sh [CASE.cmd...]   (default: every case)
# Each case gets its .out, .rc and .err; an empty .err is kept, since it says
# the command writes nothing to stderr (tests/run_cli_case.sh requires it).
# Then read `git diff tests/cli` before committing: every changed number must
# be explained by the change.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
cases=${*:-$(find "$root/tests/cli" -name '*.cmd' | sort)}
for c in $cases; do
	UPDATE=1 "$root/tests/run_cli_case.sh" "$c" "$build/xplane-stat" "$build/synth"
done
echo "updated $(echo "$cases" | wc -w) case(s); review with: git diff tests/cli"
