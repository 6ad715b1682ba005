xplane-stat autotune --trim 0 --csv $SYNTH/autotune
