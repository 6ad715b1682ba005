mkdir -p $TMP/d/sub && cp $SYNTH/../bad/gpu.xplane.pb $TMP/d/sub/ && ln -s .. $TMP/d/sub/up && ln -s ../.. $TMP/d/sub/upup && xplane-stat --csv $TMP/d
