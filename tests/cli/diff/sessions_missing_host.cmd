xplane-stat diff $SYNTH/sessions/partial $SYNTH/sessions/cur
