xplane-stat events --counters --json $SYNTH/counters.xplane.pb
