xplane-stat overview --stragglers $SYNTH/sessions/pod | sed -n '/^STRAGGLERS/,$p'
