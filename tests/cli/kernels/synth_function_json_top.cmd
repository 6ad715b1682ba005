xplane-stat kernels --by function --json --top 1 $SYNTH/gpu_kernels.xplane.pb
