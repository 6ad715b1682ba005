xplane-stat compile $SYNTH/compile_programs.xplane.pb
