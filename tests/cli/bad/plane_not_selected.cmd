cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r --device TPU:0 far_lines.xplane.pb; echo "exit $?"; done
