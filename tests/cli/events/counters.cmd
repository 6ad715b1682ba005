xplane-stat events --counters $SYNTH/counters.xplane.pb
