xplane-stat autotune --compat=other $SYNTH/autotune
