xplane-stat ops --by category --device TPU:1 testdata/real/tpu_v6e_inference.xplane.pb
