xplane-stat compile --events $SYNTH/compile.xplane.pb
