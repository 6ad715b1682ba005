xplane-stat ops --by scope $SYNTH/ops_hlo.xplane.pb
