. tests/capture/env.sh; FAKE_CUPTI_NO_DRIVER_API=1 xplane-stat capture --nvtx -o $TMP/x.xplane.pb -- $FAKE_APP xla && xplane-stat planes $TMP/x.xplane.pb
