for m in "" --list; do xplane-stat events $m testdata/bad/corrupt_utf8_mangled.xplane.pb; echo "exit $?"; done
