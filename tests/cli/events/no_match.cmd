xplane-stat events --match nothing-like-this $SYNTH/overview.xplane.pb
