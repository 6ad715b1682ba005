xplane-stat ops --by framework $SYNTH/ops_framework.xplane.pb
