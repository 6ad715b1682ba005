. tests/capture/env.sh; xplane-stat capture --no-stats -o $TMP/d.xplane.pb -- $FAKE_APP reuse && xplane-stat kernels --csv $TMP/d.xplane.pb
