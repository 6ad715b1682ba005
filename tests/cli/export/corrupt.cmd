xplane-stat export testdata/bad/corrupt_utf8_mangled.xplane.pb -o $TMP/x.json; rc=$?; ls $TMP; exit $rc
