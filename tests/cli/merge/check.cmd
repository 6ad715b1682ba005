xplane-stat summarize $SYNTH/diff/base -o $TMP/a.jsonl && xplane-stat merge --check $TMP/a.jsonl
