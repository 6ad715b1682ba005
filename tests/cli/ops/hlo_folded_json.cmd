xplane-stat ops --folded --json $SYNTH/ops_hlo.xplane.pb
