xplane-stat planes --json $SYNTH/aggregated.xplane.pb
