xplane-stat events --counters --json $SYNTH/counters_dup.xplane.pb
