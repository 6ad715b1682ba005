xplane-stat ops --json --by category $SYNTH/ops_tpu.xplane.pb
