xplane-stat kernels testdata/summaries/history.jsonl
