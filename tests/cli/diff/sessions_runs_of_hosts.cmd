xplane-stat diff $SYNTH/sessions/base $SYNTH/sessions/cur --gate 5
