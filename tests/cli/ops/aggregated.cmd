xplane-stat ops $SYNTH/aggregated.xplane.pb
