xplane-stat ops --top 8 testdata/real/nvidia_h200_jax_model.xplane.pb
