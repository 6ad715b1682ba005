xplane-stat overview --device gpu:7 $SYNTH/steps_host_only.xplane.pb
