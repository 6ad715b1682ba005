cd $SYNTH/../bad && xplane-stat events --list bad_names.xplane.pb
