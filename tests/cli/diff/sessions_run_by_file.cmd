xplane-stat diff --run-by file --json $SYNTH/sessions/base $SYNTH/sessions/cur
