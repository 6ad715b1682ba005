xplane-stat functions --per-fle $SYNTH/tpu_basic.xplane.pb
