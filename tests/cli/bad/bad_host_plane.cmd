cd $SYNTH/../bad && for r in protobuf-c wire; do xplane-stat --reader=$r bad_host_plane.xplane.pb; echo "exit $?"; done
