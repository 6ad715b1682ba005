mkdir -p $TMP/s/a && cp $SYNTH/../bad/gpu.xplane.pb $TMP/s/a/ && ln -s a $TMP/s/b && xplane-stat --csv $TMP/s
