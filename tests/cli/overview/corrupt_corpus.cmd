xplane-stat overview testdata/bad/corrupt_utf8_mangled.xplane.pb
