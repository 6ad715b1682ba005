xplane-stat --csv -o /nonexistent-dir/out.csv testdata/real/mi300x_jax_gemm.xplane.pb
