for r in protobuf-c wire; do xplane-stat --reader=$r $SYNTH/tpu_two_module_lines.xplane.pb; echo "exit $?"; done
