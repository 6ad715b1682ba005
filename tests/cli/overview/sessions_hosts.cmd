xplane-stat overview $SYNTH/sessions/base && xplane-stat overview --json $SYNTH/sessions/rounds
