xplane-stat --csv $SYNTH/gpu_host_multi.xplane.pb
