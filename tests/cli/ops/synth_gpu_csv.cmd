xplane-stat ops --csv $SYNTH/ops_gpu.xplane.pb
