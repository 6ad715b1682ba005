xplane-stat diff --gate ten $SYNTH/diff/base $SYNTH/diff/slow
