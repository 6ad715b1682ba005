xplane-stat autotune --csv --min-duration 50us $SYNTH/autotune
