xplane-stat memory testdata/real/nvidia_h200_jax_memory.xplane.pb
