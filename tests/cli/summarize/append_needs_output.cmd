xplane-stat summarize --append $SYNTH/diff/base
