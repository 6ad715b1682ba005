xplane-stat kernels $SYNTH/gpu_stray_end.xplane.pb
