xplane-stat overview --json $SYNTH/gpu_repeated_ids.xplane.pb
