xplane-stat --csv $SYNTH/gpu_runs.xplane.pb
