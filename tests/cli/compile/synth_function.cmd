xplane-stat compile --function G --top 1 $SYNTH/compile.xplane.pb
