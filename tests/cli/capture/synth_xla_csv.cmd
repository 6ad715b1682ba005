xplane-stat --csv $SYNTH/capture/xla.xplane.pb
