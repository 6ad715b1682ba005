xplane-stat kernels $SYNTH/cpu.xplane.pb
