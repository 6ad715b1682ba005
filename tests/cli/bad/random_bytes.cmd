cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r random.xplane.pb; echo "exit $?"; done
