xplane-stat compile $SYNTH/compile_nested.xplane.pb
