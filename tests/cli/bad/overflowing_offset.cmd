cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r overflow_offset.xplane.pb; echo "exit $?"; done
