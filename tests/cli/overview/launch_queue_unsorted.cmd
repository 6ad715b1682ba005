xplane-stat overview $SYNTH/launch_queue_unsorted.xplane.pb
