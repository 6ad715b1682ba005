xplane-stat ops --sort flops --csv $SYNTH/ops_gpu_cost.xplane.pb
