xplane-stat ops --by scope --csv $SYNTH/ops_hlo.xplane.pb
