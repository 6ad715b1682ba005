#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The man page's EXAMPLES that name a bundled trace (testdata/real) run as
# written: exit status 0, at least one row, and with --children no row whose
# time is zero (a --children regex that matches nothing on the trace it
# names would teach the wrong pattern).
#   man_examples.sh XPLANE_STAT MAN_PAGE   (from the repository root)
set -u
bin=$1 man=$2
lines=$(sed -n '/^\.EX/,/^\.EE/p' "$man" | grep '^xplane\\-stat .*testdata/real/' |
	sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\(ha/^/g' -e 's/\\e/\\/g')
[ -n "$lines" ] || { echo "no example in $man names a trace in testdata/real"; exit 1; }
echo "$lines" | while IFS= read -r line; do
	cmd="\"$bin\" ${line#xplane-stat } --csv"
	out=$(eval "$cmd" 2>&1)
	rc=$?
	rows=$(printf '%s\n' "$out" | awk -F, 'NR > 1' | wc -l)
	zero=$(printf '%s\n' "$out" | awk -F, 'NR > 1 && $8 + 0 == 0' | wc -l)
	case $line in *--children*) ;; *) zero=0 ;; esac
	if [ $rc -ne 0 ] || [ "$rows" -eq 0 ] || [ "$zero" -ne 0 ]; then
		echo "FAIL ($rc, $rows rows, $zero with no time): $line"
		printf '%s\n' "$out" | head -20
		exit 1
	fi
	echo "ok: $line ($rows rows)"
done
