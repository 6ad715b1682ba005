xplane-stat events --json --plane host --line steps --match ^tr $SYNTH/overview.xplane.pb
