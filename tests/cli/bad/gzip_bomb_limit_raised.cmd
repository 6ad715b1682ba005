cd $SYNTH/../bad && xplane-stat --max-input-size 65M --csv bomb.xplane.pb.gz
