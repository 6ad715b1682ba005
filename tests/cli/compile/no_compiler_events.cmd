xplane-stat compile $SYNTH/tpu_basic.xplane.pb
