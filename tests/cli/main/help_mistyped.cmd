xplane-stat help plane
