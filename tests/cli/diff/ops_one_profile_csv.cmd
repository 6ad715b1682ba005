xplane-stat diff --level ops --csv --match "^(fusion|copy)" testdata/real/tpu_v6e_inference.xplane.pb testdata/real/tpu_v6e_inference.xplane.pb
