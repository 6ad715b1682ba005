xplane-stat ops --by source --json $SYNTH/ops_hlo_hostile.xplane.pb
