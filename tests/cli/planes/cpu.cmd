xplane-stat planes $SYNTH/cpu.xplane.pb
