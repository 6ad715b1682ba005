require gzip; gzip -c testdata/real/mi300x_jax_gemm.xplane.pb | xplane-stat --csv -
