. tests/capture/env.sh; xplane-stat capture --capture-range=cudaProfilerApi -o $TMP/r.xplane.pb -- $FAKE_APP range && xplane-stat planes $TMP/r.xplane.pb
