xplane-stat overview --json $SYNTH/steps_host_only.xplane.pb
