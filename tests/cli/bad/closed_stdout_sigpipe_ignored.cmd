{ trap "" PIPE; sleep 1; xplane-stat --csv testdata/real/mi300x_jax_gemm.xplane.pb 2>$TMP/err; echo "exit $?" >$TMP/rc; } | true; cat $TMP/rc; echo "stderr: $(wc -c <$TMP/err) bytes"
