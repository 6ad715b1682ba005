xplane-stat summarize $SYNTH/diff/base -o $TMP/a.jsonl && head -c 700 $TMP/a.jsonl > $TMP/t.jsonl && xplane-stat autotune $TMP/t.jsonl
