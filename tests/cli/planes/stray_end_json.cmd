xplane-stat planes --json $SYNTH/tpu_stray_end.xplane.pb
