xplane-stat --json $SYNTH/gpu_host_partial.xplane.pb
