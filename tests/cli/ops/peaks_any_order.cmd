cd "$SYNTH" && xplane-stat ops util_edges.xplane.pb steps_tpu.xplane.pb > $TMP/ab && xplane-stat ops steps_tpu.xplane.pb util_edges.xplane.pb > $TMP/ba && cmp $TMP/ab $TMP/ba && tail -2 $TMP/ab
