xplane-stat autotune --id-regex '^jit_(dot)$' --trim 0 --csv testdata/real/mi300x_jax_gemm.xplane.pb
