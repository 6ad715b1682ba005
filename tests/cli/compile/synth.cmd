xplane-stat compile $SYNTH/compile.xplane.pb
