xplane-stat report $SYNTH/autotune $SYNTH/tpu_basic.xplane.pb testdata/bad/corrupt_utf8_mangled.xplane.pb -o $TMP/r.html; rc=$?; grep -c "<tr class=\"fn\">" $TMP/r.html; exit $rc
