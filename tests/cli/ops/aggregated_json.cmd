xplane-stat ops --json $SYNTH/aggregated.xplane.pb
