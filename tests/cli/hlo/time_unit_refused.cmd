xplane-stat hlo --time-unit ms testdata/real/mi300x_jax_gemm.xplane.pb
