require gzip; gzip -c testdata/real/mi300x_jax_gemm.xplane.pb > $TMP/a.xplane.pb.gz && xplane-stat --csv $TMP/a.xplane.pb.gz
