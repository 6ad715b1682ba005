xplane-stat hlo testdata/real/mi300x_jax_conv.xplane.pb --op cudnn-conv.1
