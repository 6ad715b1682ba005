xplane-stat ops testdata/real/v100_tf_bert.xplane.pb
