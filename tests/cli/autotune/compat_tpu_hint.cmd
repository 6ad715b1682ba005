xplane-stat autotune --compat=ejkernel testdata/real/tpu_v6e_inference.xplane.pb
