xplane-stat --frobnicate testdata/real/mi300x_jax_gemm.xplane.pb
