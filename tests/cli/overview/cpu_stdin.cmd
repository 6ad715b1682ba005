xplane-stat overview - < $SYNTH/cpu.xplane.pb
