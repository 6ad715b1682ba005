xplane-stat ops --sort speed testdata/real/v100_tf_bert.xplane.pb
