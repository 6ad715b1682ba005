xplane-stat kernels --top 8 testdata/real/nvidia_h200_jax_model_graphs_off.xplane.pb
