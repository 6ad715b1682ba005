xplane-stat ops --by scope $SYNTH/ops_hlo_hostile.xplane.pb
