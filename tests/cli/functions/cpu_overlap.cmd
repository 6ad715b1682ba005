xplane-stat functions --json $SYNTH/cpu_overlap.xplane.pb
