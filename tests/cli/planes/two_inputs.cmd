xplane-stat planes testdata/real/mi300x_jax_gemm.xplane.pb testdata/real/mi300x_jax_conv.xplane.pb
