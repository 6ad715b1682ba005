xplane-stat events $SYNTH/aggregated_mixed.xplane.pb
