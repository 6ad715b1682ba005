xplane-stat kernels --copies --csv $SYNTH/gpu_kernels.xplane.pb
