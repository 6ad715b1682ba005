xplane-stat ops --json $SYNTH/ops_gpu_cost.xplane.pb
