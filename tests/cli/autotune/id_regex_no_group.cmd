xplane-stat autotune --id-regex 'jit_dot' testdata/real/mi300x_jax_gemm.xplane.pb
