. tests/capture/env.sh; xplane-stat capture --capture-range=cudaProfilerApi -o $TMP/r.xplane.pb -- $FAKE_APP range-never; echo "capture: $?"; ls $TMP
