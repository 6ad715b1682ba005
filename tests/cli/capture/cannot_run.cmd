. tests/capture/env.sh; xplane-stat capture -o $TMP/x.xplane.pb -- $TMP/no-such-program; echo "capture: $?"; ls $TMP
