xplane-stat export $SYNTH/export.xplane.pb --device nosuch -o $TMP/x.json; rc=$?; ls $TMP; exit $rc
