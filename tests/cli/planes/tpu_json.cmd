xplane-stat planes --json testdata/real/tpu_v6e_inference.xplane.pb
