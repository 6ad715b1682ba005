xplane-stat overview --json $SYNTH/launch_queue.xplane.pb
