xplane-stat --version
