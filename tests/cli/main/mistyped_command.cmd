xplane-stat autotun --json $SYNTH/autotune
