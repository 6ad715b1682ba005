xplane-stat compile --json $SYNTH/compile_programs_tpu.xplane.pb
