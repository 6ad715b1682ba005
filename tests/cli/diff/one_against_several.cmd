xplane-stat diff --level autotune $SYNTH/diff/base/round_0.xplane.pb $SYNTH/diff/slow
