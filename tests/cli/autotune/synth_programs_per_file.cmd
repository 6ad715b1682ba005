xplane-stat autotune --per-file $SYNTH/autotune_programs.xplane.pb
