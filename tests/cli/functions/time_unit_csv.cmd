xplane-stat --time-unit s --csv testdata/real/mi300x_jax_gemm.xplane.pb | head -3
