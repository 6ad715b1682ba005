xplane-stat overview testdata/real/nvidia_h200_jax_model.xplane.pb
