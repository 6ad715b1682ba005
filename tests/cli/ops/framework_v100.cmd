xplane-stat ops --by framework --top 4 testdata/real/v100_tf_bert.xplane.pb
