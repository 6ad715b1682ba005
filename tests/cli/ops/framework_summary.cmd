xplane-stat summarize $SYNTH/ops_framework.xplane.pb -o $TMP/s.jsonl && xplane-stat ops --by framework $TMP/s.jsonl
