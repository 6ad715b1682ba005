cd $SYNTH && xplane-stat report export.xplane.pb -o - | grep -c "&lt;/svg&gt;&lt;script&gt;"; xplane-stat report export.xplane.pb -o - | grep -ci "<script" || echo "no script element"
