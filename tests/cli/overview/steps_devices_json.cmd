xplane-stat overview --steps --json $SYNTH/steps_devices.xplane.pb
