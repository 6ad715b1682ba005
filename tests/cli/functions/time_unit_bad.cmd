xplane-stat --time-unit sec testdata/real/mi300x_jax_gemm.xplane.pb
