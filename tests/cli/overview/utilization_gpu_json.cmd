xplane-stat overview --json $SYNTH/ops_gpu_cost.xplane.pb
