xplane-stat functions $SYNTH/aggregated.xplane.pb
