cd $SYNTH/../bad && xplane-stat --json bad_names.xplane.pb
