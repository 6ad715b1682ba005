cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r len_past_end.xplane.pb; echo "exit $?"; done
