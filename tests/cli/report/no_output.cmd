xplane-stat report $SYNTH/autotune
