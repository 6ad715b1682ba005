xplane-stat --csv --per-device $SYNTH/capture/two.xplane.pb
