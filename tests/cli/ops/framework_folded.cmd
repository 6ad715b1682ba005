xplane-stat ops --by framework --folded $SYNTH/ops_hlo.xplane.pb
