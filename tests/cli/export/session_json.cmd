xplane-stat export $SYNTH/sessions/base/run_0 -o - --format json
