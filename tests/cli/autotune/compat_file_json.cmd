xplane-stat autotune --compat=ejkernel --json $SYNTH/compat.xplane.pb
