xplane-stat overview --steps $SYNTH/steps_host.xplane.pb
