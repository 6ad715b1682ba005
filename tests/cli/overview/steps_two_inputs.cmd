xplane-stat overview --steps $SYNTH/steps_tpu.xplane.pb $SYNTH/overview.xplane.pb
