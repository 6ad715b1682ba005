xplane-stat memory --json --peak --timeline $SYNTH/memory.xplane.pb
