xplane-stat autotune --tsv --trim 0 $SYNTH/autotune_programs.xplane.pb
