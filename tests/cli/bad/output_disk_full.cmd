echo old >$TMP/out.csv; (trap "" XFSZ; ulimit -f 1; xplane-stat --csv -o $TMP/out.csv testdata/real/mi300x_jax_gemm.xplane.pb); echo "exit $?"; cat $TMP/out.csv; ls $TMP
