xplane-stat help planes
