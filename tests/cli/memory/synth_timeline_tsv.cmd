xplane-stat memory --tsv --timeline --memory gpu_0 $SYNTH/memory.xplane.pb
