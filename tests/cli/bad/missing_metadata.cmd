cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r missing_metadata.xplane.pb; echo "exit $?"; done
