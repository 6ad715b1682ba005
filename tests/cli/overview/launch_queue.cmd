xplane-stat overview $SYNTH/launch_queue.xplane.pb
