for r in protobuf-c wire; do xplane-stat --reader=$r $SYNTH/gpu_odd_stats.xplane.pb; echo "exit $?"; done
