xplane-stat overview --steps testdata/real/tpu_v6e_inference.xplane.pb
