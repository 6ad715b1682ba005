cd $SYNTH/../bad && xplane-stat truncated.xplane.pb.gz; echo "exit $?"; xplane-stat - <truncated.xplane.pb.gz; echo "exit $?"
