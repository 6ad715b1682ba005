mkdir $TMP/d && cp $SYNTH/../bad/gpu.xplane.pb $TMP/d/ && mkfifo $TMP/d/x.xplane.pb && xplane-stat $TMP/d
