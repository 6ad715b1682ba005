xplane-stat summarize $SYNTH/diff/base -o $TMP/a.jsonl && sed '3s/"plane":0,"busy_ps":[0-9]*/"plane":0,"busy_ps":-1/' $TMP/a.jsonl > $TMP/neg.jsonl && xplane-stat merge --check $TMP/neg.jsonl
