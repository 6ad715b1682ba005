mkfifo $TMP/f.xplane.pb && { cat $SYNTH/../bad/gpu.xplane.pb >$TMP/f.xplane.pb & } && xplane-stat --csv $TMP/f.xplane.pb; echo "exit $?"; wait
