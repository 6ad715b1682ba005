xplane-stat compile --csv $SYNTH/compile_programs.xplane.pb
