xplane-stat compile testdata/bad/corrupt_utf8_mangled.xplane.pb
