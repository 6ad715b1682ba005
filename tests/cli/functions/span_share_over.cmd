xplane-stat functions --time span testdata/real/mi300x_jax_conv.xplane.pb; xplane-stat functions --time span --json testdata/real/mi300x_jax_conv.xplane.pb | grep "\"share\""
