xplane-stat planes testdata/real/nvidia_h200_jax_matmul.xplane.pb
