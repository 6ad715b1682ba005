xplane-stat diff --level autotune --gate 5 --json $SYNTH/diff/same $SYNTH/diff/slow
