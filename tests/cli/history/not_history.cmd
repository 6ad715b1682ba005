xplane-stat history $SYNTH/diff/base/round_0.xplane.pb
