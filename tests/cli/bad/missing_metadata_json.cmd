cd $SYNTH/../bad && xplane-stat --json missing_metadata.xplane.pb
