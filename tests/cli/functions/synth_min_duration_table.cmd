xplane-stat --min-duration 2.5us $SYNTH/gpu_runs.xplane.pb
