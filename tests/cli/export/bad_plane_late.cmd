cat $SYNTH/export.xplane.pb $SYNTH/../bad/negative_duration.xplane.pb > $TMP/two.xplane.pb && xplane-stat export $TMP/two.xplane.pb -o $TMP/x.pftrace; rc=$?; ls $TMP; exit $rc
