xplane-stat functions $SYNTH/scope_ranges.xplane.pb
