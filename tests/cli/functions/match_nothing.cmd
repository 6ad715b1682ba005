xplane-stat --match '^nothing' testdata/real/mi300x_jax_gemm.xplane.pb
