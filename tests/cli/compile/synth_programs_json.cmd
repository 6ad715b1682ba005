xplane-stat compile --json $SYNTH/compile_programs.xplane.pb
