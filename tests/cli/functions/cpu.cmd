xplane-stat functions $SYNTH/cpu.xplane.pb
