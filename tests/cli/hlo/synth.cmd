xplane-stat hlo $SYNTH/ops_hlo.xplane.pb
