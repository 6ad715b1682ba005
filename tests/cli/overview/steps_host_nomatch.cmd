xplane-stat overview --steps --device gpu:7 $SYNTH/steps_host.xplane.pb
