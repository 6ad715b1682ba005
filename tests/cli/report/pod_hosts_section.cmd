xplane-stat report $SYNTH/sessions/pod -o - | sed -n '/<section id="stragglers">/,/<\/section>/p' | sed -n '/Which host/,$p'
