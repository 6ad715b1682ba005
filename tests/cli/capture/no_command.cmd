xplane-stat capture -o x.xplane.pb ./app
