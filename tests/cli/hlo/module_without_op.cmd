xplane-stat hlo testdata/real/mi300x_jax_gemm.xplane.pb --module jit_dot
