cd $SYNTH && xplane-stat export export.xplane.pb -o $TMP/x.pftrace && xplane-stat export export.xplane.pb --format pftrace -o - | cmp - $TMP/x.pftrace && echo same; wc -c < $TMP/x.pftrace
