xplane-stat compile testdata/real/tpu_v6e_inference.xplane.pb
