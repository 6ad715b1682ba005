xplane-stat compile --tsv --events $SYNTH/compile.xplane.pb
