xplane-stat ops --by scope testdata/real/nvidia_h200_jax_model.xplane.pb
