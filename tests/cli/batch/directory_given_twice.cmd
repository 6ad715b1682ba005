xplane-stat functions $SYNTH/diff/base $SYNTH/diff/base 2>&1 >/dev/null
