: > $TMP/empty.xplane.pb; for r in protobuf-c wire; do xplane-stat --reader=$r $TMP/empty.xplane.pb; echo "exit $?"; done; xplane-stat - </dev/null; echo "exit $?"
