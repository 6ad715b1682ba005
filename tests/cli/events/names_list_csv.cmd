cd $SYNTH/../bad && xplane-stat events --list --csv bad_names.xplane.pb
