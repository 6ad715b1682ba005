xplane-stat hlo $SYNTH/ops_hlo.xplane.pb --op dot.1 --json
