cd $SYNTH && xplane-stat export export.xplane.pb --max-events 1 -o $TMP/x.json; rc=$?; ls $TMP; exit $rc
