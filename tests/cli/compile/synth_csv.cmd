xplane-stat compile --csv $SYNTH/compile.xplane.pb
