xplane-stat events --counters --list $SYNTH/counters.xplane.pb
