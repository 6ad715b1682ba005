xplane-stat ops $SYNTH/sparsecore.xplane.pb
