xplane-stat diff $SYNTH/sessions/rounds $SYNTH/sessions/cur
