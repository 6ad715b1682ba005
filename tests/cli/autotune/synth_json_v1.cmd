xplane-stat autotune --json --json-version 1 $SYNTH/autotune
