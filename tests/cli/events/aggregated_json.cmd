xplane-stat events --json $SYNTH/aggregated.xplane.pb
