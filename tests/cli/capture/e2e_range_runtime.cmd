. tests/capture/env.sh; xplane-stat capture --capture-range=cudaProfilerApi --no-stats -o $TMP/r.xplane.pb -- $FAKE_APP range-runtime && xplane-stat planes $TMP/r.xplane.pb
