gzip -c testdata/real/mi300x_jax_gemm.xplane.pb | xplane-stat --max-input-size 18446744073709551615 --csv - | head -3
