xplane-stat -j 0 testdata/real/mi300x_jax_gemm.xplane.pb; xplane-stat planes --jobs=0 testdata/real/mi300x_jax_gemm.xplane.pb
