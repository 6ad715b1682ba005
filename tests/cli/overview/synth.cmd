xplane-stat overview $SYNTH/overview.xplane.pb
