xplane-stat summarize $SYNTH/diff/base -o $TMP/s.jsonl && gzip $TMP/s.jsonl && xplane-stat autotune --csv $TMP/s.jsonl.gz && cat $TMP/s.jsonl.gz | xplane-stat autotune -
