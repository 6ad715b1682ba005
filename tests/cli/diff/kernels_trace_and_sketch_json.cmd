xplane-stat summarize $SYNTH/gpu_many_copies.xplane.pb -o $TMP/s.jsonl && xplane-stat diff --level kernels --json $SYNTH/gpu_many_copies.xplane.pb $TMP/s.jsonl
