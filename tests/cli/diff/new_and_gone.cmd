xplane-stat diff $SYNTH/autotune $SYNTH/diff/base
