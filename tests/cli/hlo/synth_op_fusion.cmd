xplane-stat hlo $SYNTH/ops_hlo.xplane.pb --op fusion.2
