xplane-stat compile --function nosuch $SYNTH/compile.xplane.pb
