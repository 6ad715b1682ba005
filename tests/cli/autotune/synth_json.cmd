xplane-stat autotune --json $SYNTH/autotune
