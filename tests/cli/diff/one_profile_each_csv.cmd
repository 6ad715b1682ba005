xplane-stat diff --gate 20 --gate-p95 5 --csv $SYNTH/diff/same/round_0.xplane.pb $SYNTH/diff/slow/round_0.xplane.pb
