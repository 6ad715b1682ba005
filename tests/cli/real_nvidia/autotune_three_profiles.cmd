xplane-stat autotune testdata/real/nvidia_h200_autotune
