. tests/capture/env.sh; mkdir $TMP/t; TMPDIR=$TMP/t xplane-stat capture -o $TMP/n.xplane.pb -- $FAKE_APP nocuda; echo "capture: $?"; ls -A $TMP/t; ls $TMP
