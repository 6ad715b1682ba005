cat $SYNTH/epoch.xplane.pb $SYNTH/export_edges.xplane.pb > $TMP/far.xplane.pb && xplane-stat overview --stragglers --csv $TMP/far.xplane.pb
