xplane-stat --per-device --csv testdata/real/mi300x_jax_conv.xplane.pb
