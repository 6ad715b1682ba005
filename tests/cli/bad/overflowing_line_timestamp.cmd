cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r far_lines.xplane.pb; echo "exit $?"; done
