xplane-stat overview $SYNTH/tpu_stray_end.xplane.pb
