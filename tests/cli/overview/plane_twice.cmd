xplane-stat overview --json $SYNTH/tpu_plane_twice.xplane.pb
