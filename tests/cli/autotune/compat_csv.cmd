xplane-stat autotune --compat=ejkernel --csv $SYNTH/autotune
