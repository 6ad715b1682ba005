xplane-stat compile testdata/real/mi300x_jax_elementwise.xplane.pb
