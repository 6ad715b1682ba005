cp testdata/real/mi300x_jax_gemm.xplane.pb "$TMP/autotun" && cd "$TMP" && xplane-stat autotun --csv | head -2
