xplane-stat functions $SYNTH/sparsecore.xplane.pb
