xplane-stat $SYNTH/gpu_old_layout_nohost.xplane.pb
