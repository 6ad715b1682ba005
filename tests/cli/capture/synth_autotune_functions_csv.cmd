xplane-stat --csv $SYNTH/capture/autotune.xplane.pb
