xplane-stat ops --by source $SYNTH/ops_hlo.xplane.pb
