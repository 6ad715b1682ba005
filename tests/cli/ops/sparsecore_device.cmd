xplane-stat ops -d TPU:0 $SYNTH/sparsecore.xplane.pb && xplane-stat ops -d sparsecore $SYNTH/sparsecore.xplane.pb
