xplane-stat --csv --time span --trim 1 $SYNTH/gpu_runs.xplane.pb
