. tests/capture/env.sh; xplane-stat capture --nvtx --capture-range=cudaProfilerApi -o $TMP/r.xplane.pb -- $FAKE_APP range-nvtx && xplane-stat planes $TMP/r.xplane.pb
