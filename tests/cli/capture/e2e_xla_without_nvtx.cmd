. tests/capture/env.sh; xplane-stat capture -o $TMP/x.xplane.pb -- $FAKE_APP xla; echo "capture: $?"; xplane-stat planes $TMP/x.xplane.pb
