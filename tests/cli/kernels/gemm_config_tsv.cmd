xplane-stat kernels --tsv --by config testdata/real/mi300x_jax_gemm.xplane.pb
