cd $SYNTH && xplane-stat export export.xplane.pb --from 4.5us --to 9us -o - --format json
