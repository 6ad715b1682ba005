xplane-stat overview --stragglers --csv testdata/real/tpu_v6e_inference.xplane.pb testdata/real/mi300x_jax_conv.xplane.pb
