for n in 1 20; do $SYNTH/../tools/bench_gen testdata/real/mi300x_jax_conv.xplane.pb $TMP/c$n.xplane.pb --copies $n 2>/dev/null && xplane-stat --csv $TMP/c$n.xplane.pb; done
