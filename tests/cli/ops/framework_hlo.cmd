xplane-stat ops --by framework $SYNTH/ops_hlo.xplane.pb
