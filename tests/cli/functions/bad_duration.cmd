xplane-stat --min-duration 5 testdata/real/mi300x_jax_gemm.xplane.pb
