xplane-stat
