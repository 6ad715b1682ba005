xplane-stat events $SYNTH/tpu_stray_end.xplane.pb
