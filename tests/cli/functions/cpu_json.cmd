xplane-stat functions --json $SYNTH/cpu.xplane.pb
