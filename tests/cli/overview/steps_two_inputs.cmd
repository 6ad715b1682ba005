cd "$SYNTH" && xplane-stat overview --steps steps_tpu.xplane.pb overview.xplane.pb
