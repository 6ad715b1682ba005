xplane-stat export --format json --max-events 7 -o - $SYNTH/counters.xplane.pb
