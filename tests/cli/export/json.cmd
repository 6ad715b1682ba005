cd $SYNTH && xplane-stat export export.xplane.pb -o - --format json
