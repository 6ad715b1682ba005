. tests/capture/env.sh; xplane-stat capture --no-stats -o $TMP/d.xplane.pb -- $FAKE_APP drop 2>$TMP/err; rc=$?; sed "s/process [0-9][0-9]*/process PID/" $TMP/err >&2; exit $rc
