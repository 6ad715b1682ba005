xplane-stat summarize $SYNTH/ops_gpu_pooled.xplane.pb -o $TMP/s.jsonl && xplane-stat ops $TMP/s.jsonl
