xplane-stat summarize $SYNTH/scope_ranges.xplane.pb -o $TMP/s.jsonl && xplane-stat functions $TMP/s.jsonl
