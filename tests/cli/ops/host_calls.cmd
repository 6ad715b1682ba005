xplane-stat ops $SYNTH/ops_host_calls.xplane.pb
