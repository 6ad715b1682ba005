xplane-stat ops $SYNTH/ops_gpu_calls.xplane.pb
