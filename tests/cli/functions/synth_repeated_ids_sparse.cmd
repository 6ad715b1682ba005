xplane-stat --json $SYNTH/gpu_repeated_ids_sparse.xplane.pb
