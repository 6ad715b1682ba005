head -c 31176 testdata/real/mi300x_jax_gemm.xplane.pb >$TMP/cut.xplane.pb; xplane-stat overview $TMP/cut.xplane.pb
