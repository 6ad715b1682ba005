xplane-stat overview $SYNTH/steps_host_only.xplane.pb
