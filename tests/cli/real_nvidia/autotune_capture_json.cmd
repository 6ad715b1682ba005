xplane-stat autotune --json testdata/real/nvidia_h200_capture_autotune.xplane.pb
