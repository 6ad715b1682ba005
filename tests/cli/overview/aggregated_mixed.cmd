xplane-stat overview $SYNTH/aggregated_mixed.xplane.pb
