xplane-stat memory --csv --peak --timeline $SYNTH/memory.xplane.pb
