xplane-stat overview --steps $SYNTH/steps_devices.xplane.pb
