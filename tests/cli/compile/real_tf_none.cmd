xplane-stat compile testdata/real/v100_tf_bert.xplane.pb
