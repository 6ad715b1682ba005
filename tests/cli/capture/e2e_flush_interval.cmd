. tests/capture/env.sh; xplane-stat capture --flush-interval 50ms --no-stats -o $TMP/k.xplane.pb -- $FAKE_APP crash 2>$TMP/err; rc=$?; sed "s/process [0-9][0-9]*/process PID/" $TMP/err >&2; exit $rc
