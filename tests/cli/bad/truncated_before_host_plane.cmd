head -c 31176 testdata/real/mi300x_jax_gemm.xplane.pb >$TMP/cut.xplane.pb; for r in protobuf-c wire; do xplane-stat --reader=$r $TMP/cut.xplane.pb; echo "exit $?"; done
