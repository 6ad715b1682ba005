xplane-stat summarize $SYNTH/sparsecore.xplane.pb -o $TMP/s.jsonl && xplane-stat ops $TMP/s.jsonl
