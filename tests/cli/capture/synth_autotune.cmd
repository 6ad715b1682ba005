xplane-stat autotune $SYNTH/capture/autotune.xplane.pb
