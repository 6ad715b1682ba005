xplane-stat autotune --time-unit ns $SYNTH/autotune
