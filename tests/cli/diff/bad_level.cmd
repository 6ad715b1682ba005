xplane-stat diff --level cycles $SYNTH/diff/base $SYNTH/diff/slow
