xplane-stat overview $SYNTH/ops_tpu.xplane.pb
