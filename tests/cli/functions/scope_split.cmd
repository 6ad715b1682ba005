xplane-stat functions $SYNTH/scope_split.xplane.pb
