xplane-stat events --list --plane host --line launch $SYNTH/overview.xplane.pb
