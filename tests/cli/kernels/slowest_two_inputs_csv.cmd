xplane-stat kernels --slowest 3 --csv -j 2 $SYNTH/gpu_kernels.xplane.pb $SYNTH/gpu_kernels.xplane.pb
