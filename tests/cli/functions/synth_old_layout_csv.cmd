for f in gpu_old_layout gpu_old_layout_nohost; do xplane-stat --per-device --csv $SYNTH/$f.xplane.pb; echo "exit $?"; done
