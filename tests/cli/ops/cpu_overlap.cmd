xplane-stat ops $SYNTH/cpu_overlap.xplane.pb
