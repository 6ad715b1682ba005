xplane-stat kernels --slowest 4 $SYNTH/gpu_kernels.xplane.pb
