cd $SYNTH/../bad && xplane-stat --json profiler_notes.xplane.pb
