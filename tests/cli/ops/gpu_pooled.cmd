xplane-stat ops $SYNTH/ops_gpu_pooled.xplane.pb
