mkdir $TMP/cur && cp $SYNTH/diff/slow/*.xplane.pb $TMP/cur/ && printf garbage > $TMP/cur/bad.xplane.pb && xplane-stat diff --level autotune --gate 5 $SYNTH/diff/base $TMP/cur
