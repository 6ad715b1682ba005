for r in protobuf-c wire; do xplane-stat --reader=$r $SYNTH/tpu_plane_twice.xplane.pb; echo "exit $?"; done
