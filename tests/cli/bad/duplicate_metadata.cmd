cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r --csv duplicate_metadata.xplane.pb; echo "exit $?"; done
