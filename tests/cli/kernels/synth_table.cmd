xplane-stat kernels $SYNTH/gpu_kernels.xplane.pb
