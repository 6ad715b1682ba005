xplane-stat --json $SYNTH/gpu_odd_stats.xplane.pb
