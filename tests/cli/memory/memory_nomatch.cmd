xplane-stat memory --memory nosuch $SYNTH/memory.xplane.pb
