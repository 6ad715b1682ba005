xplane-stat summarize testdata/real/mi300x_jax_gemm.xplane.pb -o $TMP/s.jsonl && xplane-stat kernels --by function --device gpu:0 $TMP/s.jsonl
