xplane-stat summarize $SYNTH/diff/base -o $TMP/a.jsonl && printf '{"xplane_stat_summary":9}\n' >> $TMP/a.jsonl && xplane-stat merge $TMP/a.jsonl
