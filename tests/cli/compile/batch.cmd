cd $SYNTH && xplane-stat compile compile.xplane.pb memory.xplane.pb
