xplane-stat --csv -o $TMP/out.csv testdata/real/mi300x_jax_gemm.xplane.pb && cat $TMP/out.csv && ls $TMP
