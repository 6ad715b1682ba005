xplane-stat ops --by framework --json $SYNTH/ops_framework.xplane.pb
