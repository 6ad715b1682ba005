xplane-stat diff --level autotune --gate 5 $SYNTH/diff/base $SYNTH/diff/same
