xplane-stat hlo testdata/real/v100_tf_bert.xplane.pb
