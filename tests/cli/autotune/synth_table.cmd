xplane-stat autotune $SYNTH/autotune
