xplane-stat testdata/no-such-file.xplane.pb
