mkfifo $TMP/fifo && { cat $TMP/fifo >$TMP/got & } && xplane-stat --csv -o $TMP/fifo $SYNTH/../bad/gpu.xplane.pb; echo "exit $?"; wait; cat $TMP/got; ls $TMP
