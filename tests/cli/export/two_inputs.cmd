xplane-stat export $SYNTH/export.xplane.pb $SYNTH/export.xplane.pb -o -
