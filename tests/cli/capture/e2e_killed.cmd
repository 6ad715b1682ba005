. tests/capture/env.sh; xplane-stat capture --no-stats -o $TMP/k.xplane.pb -- $FAKE_APP crash 2>&1 | sed "s/process [0-9]*/process PID/"; xplane-stat planes $TMP/k.xplane.pb
