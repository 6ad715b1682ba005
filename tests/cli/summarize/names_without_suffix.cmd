xplane-stat summarize -o $TMP/s.jsonl $SYNTH/tpu_plain_names.xplane.pb && xplane-stat functions $TMP/s.jsonl && xplane-stat diff $TMP/s.jsonl $SYNTH/tpu_plain_names.xplane.pb
