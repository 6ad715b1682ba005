xplane-stat ops --folded $SYNTH/ops_hlo.xplane.pb
