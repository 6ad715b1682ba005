xplane-stat summarize $SYNTH/diff/base -o $TMP/s.jsonl && xplane-stat overview $TMP/s.jsonl
