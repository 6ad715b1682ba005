xplane-stat memory --csv $SYNTH/memory.xplane.pb
