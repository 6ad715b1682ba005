xplane-stat summarize testdata/real/v100_tf_bert.xplane.pb -o $TMP/s.jsonl && xplane-stat ops --by framework $TMP/s.jsonl
