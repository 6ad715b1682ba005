xplane-stat memory --top 2 $SYNTH/memory.xplane.pb
