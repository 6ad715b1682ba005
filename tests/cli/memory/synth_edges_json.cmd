xplane-stat memory --json $SYNTH/memory_edges.xplane.pb
