xplane-stat kernels --by kernel $SYNTH/gpu_kernels.xplane.pb
