xplane-stat overview $SYNTH/sparsecore.xplane.pb
