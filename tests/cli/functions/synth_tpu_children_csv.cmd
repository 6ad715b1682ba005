xplane-stat --csv --per-device --children 'fusion' $SYNTH/tpu_basic.xplane.pb
