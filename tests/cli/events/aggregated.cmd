xplane-stat events $SYNTH/aggregated.xplane.pb
