xplane-stat ops --by source --json $SYNTH/ops_hlo.xplane.pb
