xplane-stat hlo --device GPU testdata/real/tpu_v6e_inference.xplane.pb
