xplane-stat planes $SYNTH/capture/xla.xplane.pb
