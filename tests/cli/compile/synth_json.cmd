xplane-stat compile --json $SYNTH/compile.xplane.pb
