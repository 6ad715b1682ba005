cd $SYNTH && xplane-stat memory memory.xplane.pb tpu_basic.xplane.pb
