mkdir $TMP/dir && xplane-stat --csv -o $TMP/dir $SYNTH/../bad/gpu.xplane.pb; echo "exit $?"; ls $TMP
