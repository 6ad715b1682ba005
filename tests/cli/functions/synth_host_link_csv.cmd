xplane-stat --csv $SYNTH/gpu_host.xplane.pb
