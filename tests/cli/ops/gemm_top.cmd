xplane-stat ops --top 3 testdata/real/mi300x_jax_gemm.xplane.pb
