xplane-stat ops --by scope --top 1 $SYNTH/ops_hlo.xplane.pb
