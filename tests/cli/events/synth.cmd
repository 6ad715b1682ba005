xplane-stat events $SYNTH/overview.xplane.pb
