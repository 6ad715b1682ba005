d=$TMP; for i in $(seq 70); do d=$d/d; done; mkdir -p $d && cp $SYNTH/../bad/gpu.xplane.pb $d/ && xplane-stat $TMP/d 2>&1 | sed "s|$TMP/[d/]*|\$TMP/d/.../|"
