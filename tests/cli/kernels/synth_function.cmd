xplane-stat kernels --by function --time-unit ns $SYNTH/gpu_kernels.xplane.pb
