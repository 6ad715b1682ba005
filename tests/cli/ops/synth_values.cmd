xplane-stat ops $SYNTH/ops_values.xplane.pb
