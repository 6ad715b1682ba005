xplane-stat diff $SYNTH/sessions/mixed $SYNTH/sessions/cur; xplane-stat diff --run-by dir $SYNTH/sessions/mixed $SYNTH/sessions/cur
