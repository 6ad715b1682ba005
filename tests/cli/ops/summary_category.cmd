xplane-stat summarize testdata/real/tpu_v6e_inference.xplane.pb -o $TMP/s.jsonl && xplane-stat ops --by category --sort self --top 4 $TMP/s.jsonl
