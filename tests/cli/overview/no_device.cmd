xplane-stat overview --device tpu testdata/real/mi300x_jax_gemm.xplane.pb
