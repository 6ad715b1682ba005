cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r --csv ref_nowhere.xplane.pb; echo "exit $?"; done
