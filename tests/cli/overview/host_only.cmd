head -c 21707 testdata/real/mi300x_jax_gemm.xplane.pb >$TMP/meta.xplane.pb; xplane-stat overview $TMP/meta.xplane.pb
