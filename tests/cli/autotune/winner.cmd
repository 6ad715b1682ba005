xplane-stat autotune --winner $SYNTH/autotune
