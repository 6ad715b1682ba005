xplane-stat functions --device zzz $SYNTH/report_hostile.xplane.pb
