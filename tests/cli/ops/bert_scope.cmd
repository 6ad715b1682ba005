xplane-stat ops --by scope testdata/real/v100_tf_bert.xplane.pb
