xplane-stat events --counters $SYNTH/ops_tpu.xplane.pb
