xplane-stat capture --json --csv -- true
