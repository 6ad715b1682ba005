xplane-stat overview --steps --csv $SYNTH/overview.xplane.pb $SYNTH/steps_tpu.xplane.pb
