xplane-stat functions --help
