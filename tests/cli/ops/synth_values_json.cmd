xplane-stat ops --json --sort flops $SYNTH/ops_values.xplane.pb
