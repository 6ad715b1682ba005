xplane-stat ops --json $SYNTH/ops_gpu_calls.xplane.pb | grep -E "\"name\"|\"occurrences\"|\"calls\""
