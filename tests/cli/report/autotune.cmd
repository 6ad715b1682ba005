cd $SYNTH && xplane-stat report autotune -o -
