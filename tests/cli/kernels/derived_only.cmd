xplane-stat kernels $SYNTH/gpu_derived_only.xplane.pb
