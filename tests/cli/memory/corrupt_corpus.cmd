xplane-stat memory testdata/bad/corrupt_utf8_mangled.xplane.pb
