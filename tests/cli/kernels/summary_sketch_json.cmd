xplane-stat summarize $SYNTH/gpu_many_copies.xplane.pb -o $TMP/s.jsonl && xplane-stat kernels --json $TMP/s.jsonl
