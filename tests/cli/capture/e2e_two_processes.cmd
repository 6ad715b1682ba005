. tests/capture/env.sh; xplane-stat capture --nvtx --no-stats -o $TMP/f.xplane.pb -- $FAKE_APP fork 2>&1 | sed "s/pid [0-9][0-9]*/pid PID/g"; xplane-stat --csv $TMP/f.xplane.pb
