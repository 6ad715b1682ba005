xplane-stat kernels --csv -j 2 testdata/real/v100_tf_bert.xplane.pb testdata/real/mi300x_jax_conv.xplane.pb
