xplane-stat overview --csv testdata/real/mi300x_jax_gemm.xplane.pb
