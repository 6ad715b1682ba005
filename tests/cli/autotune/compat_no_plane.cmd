xplane-stat autotune --compat=ejkernel --device tpu $SYNTH/autotune/round_0.xplane.pb
