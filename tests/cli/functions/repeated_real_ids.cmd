for a in "1" "20" "20 --new-ids"; do $SYNTH/../tools/bench_gen testdata/real/mi300x_jax_conv.xplane.pb $TMP/c.xplane.pb --copies $a 2>/dev/null && xplane-stat --csv $TMP/c.xplane.pb; done
