mkdir -p $TMP/d; cp testdata/bad/corrupt_utf8_mangled.xplane.pb $TMP/d/x.xplane.pb; : >$TMP/d/y.xplane.pb; xplane-stat $TMP/d
