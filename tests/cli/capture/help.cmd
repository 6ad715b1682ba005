xplane-stat capture --help
