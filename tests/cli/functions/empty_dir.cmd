mkdir $TMP/d; xplane-stat $TMP/d
