xplane-stat ops --by framework --csv $SYNTH/ops_framework.xplane.pb
