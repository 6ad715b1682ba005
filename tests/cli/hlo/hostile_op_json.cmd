xplane-stat hlo $SYNTH/ops_hlo_hostile.xplane.pb --op "$(printf 'cc\033;"1\\')" --json
