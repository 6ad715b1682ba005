: > $TMP/empty.xplane.pb; xplane-stat $TMP/empty.xplane.pb
