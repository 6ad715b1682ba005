xplane-stat ops --by source testdata/real/mi300x_jax_conv.xplane.pb
