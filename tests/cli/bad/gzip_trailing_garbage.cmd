cd $SYNTH/../bad && xplane-stat trailing_garbage.xplane.pb.gz
