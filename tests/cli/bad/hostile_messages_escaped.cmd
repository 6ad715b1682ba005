cd $SYNTH/../bad && xplane-stat functions hostile_notes.xplane.pb >/dev/null && xplane-stat functions --device zzz hostile_notes.xplane.pb
