xplane-stat kernels $SYNTH/gpu_other_lines.xplane.pb; xplane-stat kernels --json $SYNTH/gpu_other_lines.xplane.pb | grep -E "\"(stream_lines|kernel_instances|copy_events)\""
