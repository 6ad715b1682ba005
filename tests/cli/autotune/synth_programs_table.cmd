xplane-stat autotune $SYNTH/autotune_programs.xplane.pb
