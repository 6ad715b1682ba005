xplane-stat --match '^jit_(add|sin)$' --trim 1 --tsv testdata/real/mi300x_jax_elementwise.xplane.pb
