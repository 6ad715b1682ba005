xplane-stat kernels --by config --json $SYNTH/gpu_kernels.xplane.pb
