xplane-stat summarize testdata/real/tpu_v6e_inference.xplane.pb -o $TMP/s.jsonl && sed "s/\"self_ps\":[0-9]*/\"self_ps\":-4/" $TMP/s.jsonl >$TMP/bad.jsonl && xplane-stat ops $TMP/bad.jsonl
