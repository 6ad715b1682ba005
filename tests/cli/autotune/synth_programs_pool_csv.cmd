xplane-stat autotune --pool-programs --csv $SYNTH/autotune_programs.xplane.pb
