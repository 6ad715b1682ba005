. tests/capture/env.sh; xplane-stat capture --nvtx -o $TMP/x.xplane.pb -- $FAKE_APP xla && xplane-stat --csv $TMP/x.xplane.pb
