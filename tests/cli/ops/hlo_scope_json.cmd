xplane-stat ops --by scope --json $SYNTH/ops_hlo.xplane.pb
