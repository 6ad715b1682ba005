xplane-stat autotune --help
