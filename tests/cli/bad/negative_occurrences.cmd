cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat events --reader=$r negative_occurrences.xplane.pb; echo "exit $?"; done
