for f in gpu_no_host gpu_host_partial; do for r in protobuf-c wire; do xplane-stat --reader=$r $SYNTH/$f.xplane.pb; echo "exit $?"; done; done
