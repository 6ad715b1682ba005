cd $SYNTH/../bad && xplane-stat bad_names.xplane.pb
