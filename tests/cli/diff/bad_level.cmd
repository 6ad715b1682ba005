xplane-stat diff --level ops $SYNTH/diff/base $SYNTH/diff/slow
