xplane-stat export $SYNTH/export.xplane.pb --format xml -o -
