xplane-stat export --format json -o - $SYNTH/counters.xplane.pb
