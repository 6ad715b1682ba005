cd $SYNTH/../bad && xplane-stat bad_crc.xplane.pb.gz
