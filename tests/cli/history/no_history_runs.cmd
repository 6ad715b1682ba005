xplane-stat summarize $SYNTH/diff/base -o $TMP/s.jsonl && xplane-stat history $TMP/s.jsonl
