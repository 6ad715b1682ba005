cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r wrong_wire_type.xplane.pb; echo "exit $?"; done
