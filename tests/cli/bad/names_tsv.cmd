cd $SYNTH/../bad && xplane-stat --tsv bad_names.xplane.pb
