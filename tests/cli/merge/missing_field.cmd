printf '{"xplane_stat_summary":1,"tool":"x"}\n' > $TMP/bad.jsonl && xplane-stat merge $TMP/bad.jsonl
