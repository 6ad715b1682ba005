xplane-stat ops $SYNTH/cpu.xplane.pb
