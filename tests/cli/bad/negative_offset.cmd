cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r --csv negative_offset.xplane.pb; echo "exit $?"; done
