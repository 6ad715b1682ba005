xplane-stat overview testdata/real/mi300x_jax_gemm.xplane.pb
