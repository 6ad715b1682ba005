xplane-stat diff --json testdata/real/nvidia_h200_jax_model_graphs_off.xplane.pb testdata/real/nvidia_h200_jax_model.xplane.pb
