xplane-stat summarize $SYNTH/ops_host_calls.xplane.pb -o $TMP/s.jsonl && xplane-stat ops $TMP/s.jsonl
