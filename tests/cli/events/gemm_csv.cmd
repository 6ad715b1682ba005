xplane-stat events --csv --plane gpu testdata/real/mi300x_jax_gemm.xplane.pb
