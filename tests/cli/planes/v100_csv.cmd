xplane-stat planes --csv testdata/real/v100_tf_bert.xplane.pb
