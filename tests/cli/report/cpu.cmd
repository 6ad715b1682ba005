xplane-stat report $SYNTH/cpu.xplane.pb -o $TMP/r.html && grep -o "jit_[fgh]" $TMP/r.html | sort | uniq -c && grep -c "/device:CPU:0 (XLA:CPU)" $TMP/r.html
