xplane-stat overview --steps --json $SYNTH/steps_tpu.xplane.pb
