xplane-stat frobnicate $SYNTH/autotune
