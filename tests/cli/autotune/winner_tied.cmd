xplane-stat autotune --winner --pool-programs $SYNTH/autotune_programs.xplane.pb
