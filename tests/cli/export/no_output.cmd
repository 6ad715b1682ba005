xplane-stat export $SYNTH/export.xplane.pb
