cd $SYNTH/../bad && xplane-stat --csv bad_names.xplane.pb
