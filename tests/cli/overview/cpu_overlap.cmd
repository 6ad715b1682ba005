xplane-stat overview $SYNTH/cpu_overlap.xplane.pb
