xplane-stat summarize --tag nokey $SYNTH/diff/base
