xplane-stat memory --csv --peak $SYNTH/memory.xplane.pb
