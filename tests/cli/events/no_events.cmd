head -c 21707 testdata/real/mi300x_jax_gemm.xplane.pb >$TMP/meta.xplane.pb; xplane-stat events $TMP/meta.xplane.pb; echo "exit $?"; xplane-stat events --list $TMP/meta.xplane.pb; echo "exit $?"
