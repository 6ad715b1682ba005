xplane-stat autotune --json --pool-programs $SYNTH/autotune_programs.xplane.pb
