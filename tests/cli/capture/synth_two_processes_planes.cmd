xplane-stat planes $SYNTH/capture/two.xplane.pb
