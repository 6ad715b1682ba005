xplane-stat testdata/bad/corrupt_utf8_mangled.xplane.pb
