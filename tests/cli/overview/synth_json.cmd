xplane-stat overview --json $SYNTH/overview.xplane.pb
