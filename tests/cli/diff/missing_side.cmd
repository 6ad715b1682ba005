xplane-stat diff $SYNTH/diff/base $TMP/nothing-here
