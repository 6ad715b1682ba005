xplane-stat --json $SYNTH/gpu_repeated_ids.xplane.pb
