xplane-stat autotune --winner $SYNTH/autotune/round_0.xplane.pb
