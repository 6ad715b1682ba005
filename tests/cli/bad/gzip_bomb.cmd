cd $SYNTH/../bad && xplane-stat --max-input-size 1M bomb.xplane.pb.gz; echo "exit $?"; xplane-stat --max-input-size 1M - <bomb.xplane.pb.gz; echo "exit $?"
