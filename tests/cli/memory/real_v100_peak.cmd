xplane-stat memory --peak --top 5 --memory GPU_4 testdata/real/v100_tf_bert.xplane.pb
