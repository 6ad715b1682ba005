xplane-stat hlo $SYNTH/ops_hlo_hostile.xplane.pb --csv
