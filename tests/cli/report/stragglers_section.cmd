xplane-stat report $SYNTH/stragglers.xplane.pb -o - | sed -n "/<section id=\"stragglers\">/,/<\/section>/p"
