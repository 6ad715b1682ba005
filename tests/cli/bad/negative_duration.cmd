cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r negative_duration.xplane.pb; echo "exit $?"; done
