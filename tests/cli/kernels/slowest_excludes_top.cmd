xplane-stat kernels --slowest 2 --top 3 $SYNTH/gpu_kernels.xplane.pb
