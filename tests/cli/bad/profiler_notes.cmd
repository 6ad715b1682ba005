cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r profiler_notes.xplane.pb; echo "exit $?"; done
