xplane-stat report -o - $SYNTH/steps_tpu.xplane.pb | sed -n '/<h3>Steps/,/<\/table>/p'
