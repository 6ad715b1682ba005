. tests/capture/env.sh; xplane-stat capture --nvtx --no-stats -o $TMP/x.xplane.pb -- $FAKE_APP nvtx && xplane-stat --csv $TMP/x.xplane.pb
