xplane-stat --csv --children 'm_kernel' $SYNTH/gpu_host_multi.xplane.pb
