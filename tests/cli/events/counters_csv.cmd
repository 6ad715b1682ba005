xplane-stat events --counters --csv --match '^(mxu|hbm)' $SYNTH/counters.xplane.pb
