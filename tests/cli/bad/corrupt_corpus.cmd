for r in protobuf-c wire; do xplane-stat --reader=$r testdata/bad/corrupt_utf8_mangled.xplane.pb; echo "exit $?"; done
