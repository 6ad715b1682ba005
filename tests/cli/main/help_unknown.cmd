xplane-stat help frobnicate
