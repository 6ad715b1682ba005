cd "$SYNTH" && xplane-stat overview --steps steps_devices.xplane.pb
