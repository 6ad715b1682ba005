xplane-stat memory --peak $SYNTH/memory.xplane.pb
