xplane-stat hlo testdata/real/tpu_v6e_inference.xplane.pb --op nope
