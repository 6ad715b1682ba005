xplane-stat compile testdata/real/nvidia_h200_jax_model.xplane.pb
