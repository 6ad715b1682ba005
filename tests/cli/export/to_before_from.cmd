xplane-stat export $SYNTH/export.xplane.pb --from 2us --to 1us -o - --format json
