xplane-stat --csv --per-device $SYNTH/gpu_host_multi.xplane.pb
