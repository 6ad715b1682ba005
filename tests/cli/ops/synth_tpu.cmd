xplane-stat ops $SYNTH/ops_tpu.xplane.pb
