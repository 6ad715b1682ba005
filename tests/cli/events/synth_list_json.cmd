xplane-stat events --list --json --plane gpu --match ^all $SYNTH/overview.xplane.pb
