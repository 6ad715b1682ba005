xplane-stat ops --folded $SYNTH/ops_hlo_hostile.xplane.pb
