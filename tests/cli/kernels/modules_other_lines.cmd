xplane-stat kernels $SYNTH/gpu_modules_other_lines.xplane.pb; xplane-stat functions $SYNTH/gpu_modules_other_lines.xplane.pb | tail -1
