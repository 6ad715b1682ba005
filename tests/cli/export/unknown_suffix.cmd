xplane-stat export $SYNTH/export.xplane.pb -o $TMP/out.txt; rc=$?; ls $TMP; exit $rc
