xplane-stat ops $SYNTH/ops_gpu_cost.xplane.pb
