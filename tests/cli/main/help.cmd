xplane-stat --help
