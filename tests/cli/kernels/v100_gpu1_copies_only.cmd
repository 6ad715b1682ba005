xplane-stat kernels --device GPU:1 --top 3 testdata/real/v100_tf_bert.xplane.pb
