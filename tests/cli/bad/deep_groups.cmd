cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r deep_groups.xplane.pb; echo "exit $?"; done
