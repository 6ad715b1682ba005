xplane-stat merge $SYNTH/diff/base/round_0.xplane.pb
