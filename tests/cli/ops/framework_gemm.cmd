xplane-stat ops --by framework testdata/real/mi300x_jax_gemm.xplane.pb
