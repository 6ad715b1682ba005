xplane-stat report testdata/bad/corrupt_utf8_mangled.xplane.pb -o $TMP/r.html; rc=$?; ls $TMP; exit $rc
