xplane-stat overview $SYNTH/util_edges.xplane.pb
