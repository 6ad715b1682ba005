xplane-stat ops $SYNTH/aggregated_mixed.xplane.pb
