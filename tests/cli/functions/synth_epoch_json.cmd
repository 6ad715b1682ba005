xplane-stat --json $SYNTH/epoch.xplane.pb
