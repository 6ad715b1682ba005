cd $SYNTH/../bad && xplane-stat events --list --json bad_names.xplane.pb
