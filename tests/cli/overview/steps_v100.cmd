xplane-stat overview --steps --device GPU:4 testdata/real/v100_tf_bert.xplane.pb
