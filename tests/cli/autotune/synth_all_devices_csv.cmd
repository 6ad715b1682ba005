xplane-stat autotune --all-devices --csv $SYNTH/autotune
