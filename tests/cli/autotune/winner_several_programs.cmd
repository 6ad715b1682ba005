xplane-stat autotune --winner $SYNTH/autotune_programs.xplane.pb
