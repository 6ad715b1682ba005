xplane-stat memory --json testdata/real/mi300x_jax_gemm.xplane.pb
