xplane-stat overview testdata/real/tpu_v6e_inference.xplane.pb
