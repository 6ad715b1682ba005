for r in protobuf-c wire; do xplane-stat planes --reader=$r --json $SYNTH/tpu_stray_end.xplane.pb >$TMP/o; echo "exit $?"; grep -E "\"(span_ns|stray_end_events|warnings)\"" $TMP/o; done
