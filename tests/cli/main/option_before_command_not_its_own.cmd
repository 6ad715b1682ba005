xplane-stat --list kernels $SYNTH/tpu_basic.xplane.pb
