xplane-stat autotune --compat=ejkernel --device tpu --csv $SYNTH/autotune_programs.xplane.pb
