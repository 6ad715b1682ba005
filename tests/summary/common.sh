# SPDX-License-Identifier: Apache-2.0
# Sourced by the summary checks: $bin, $tmp, $fail and $runs are theirs.

# run_both ARGS -- TRACES -- SUMMARY: the command on the traces ($tmp/a,
# $tmp/a.err, exit $ra) and on the summary ($tmp/b, $tmp/b.err, exit $rb);
# $args, $traces and $sum say which.
run_both() {
	args="" traces="" sum=""
	while [ "$1" != -- ]; do args="$args $1"; shift; done
	shift
	while [ "$1" != -- ]; do traces="$traces $1"; shift; done
	sum=$2
	# shellcheck disable=SC2086
	"$bin" $args $traces >"$tmp/a" 2>"$tmp/a.err"
	ra=$?
	# shellcheck disable=SC2086
	"$bin" $args "$sum" >"$tmp/b" 2>"$tmp/b.err"
	rb=$?
	runs=$((runs + 1))
}

# compare A B A_ERR B_ERR: after run_both, fail unless the exits and files agree
compare() {
	if [ $ra -ne $rb ] || ! cmp -s "$1" "$2" || ! cmp -s "$3" "$4"; then
		echo "differs:$args on$traces (exit $ra) and $sum (exit $rb)"
		diff "$1" "$2" | head -6
		diff "$3" "$4" | head -6
		fail=1
	fi
}
