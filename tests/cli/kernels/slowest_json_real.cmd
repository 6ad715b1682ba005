xplane-stat kernels --slowest 2 --json testdata/real/nvidia_h200_jax_model_graphs_off.xplane.pb
