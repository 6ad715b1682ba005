xplane-stat ops --top 5 --sort self testdata/real/tpu_v6e_inference.xplane.pb
