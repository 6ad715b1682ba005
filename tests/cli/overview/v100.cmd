xplane-stat overview testdata/real/v100_tf_bert.xplane.pb
