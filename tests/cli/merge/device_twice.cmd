xplane-stat summarize $SYNTH/diff/base -o $TMP/a.jsonl && sed '2s/"devices":\[\({[^}]*}\)\]/"devices":[\1,\1]/' $TMP/a.jsonl > $TMP/twice.jsonl && xplane-stat merge --check $TMP/twice.jsonl
