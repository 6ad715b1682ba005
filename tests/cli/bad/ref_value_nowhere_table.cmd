cd $SYNTH/../bad && xplane-stat ref_nowhere.xplane.pb
