xplane-stat memory $SYNTH/tpu_basic.xplane.pb
