xplane-stat hlo testdata/real/mi300x_jax_gemm.xplane.pb --op custom-call.1 --module 'jit_dot(64)' --json
