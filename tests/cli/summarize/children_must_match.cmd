xplane-stat summarize --children fusion $SYNTH/gpu_host.xplane.pb -o $TMP/c.jsonl && xplane-stat functions --children fusion $TMP/c.jsonl && xplane-stat functions $TMP/c.jsonl
