xplane-stat hlo testdata/real/nvidia_h200_jax_model.xplane.pb --op input_reduce_fusion.1
