xplane-stat planes $SYNTH/tpu_stray_end.xplane.pb
