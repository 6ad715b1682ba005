mkdir -p $TMP/d/a $TMP/d/b; cp testdata/real/mi300x_jax_gemm.xplane.pb $TMP/d/a/; cp testdata/bad/corrupt_utf8_mangled.xplane.pb $TMP/d/b/x.xplane.pb; xplane-stat --csv $TMP/d
