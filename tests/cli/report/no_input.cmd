xplane-stat report -o $TMP/r.html < /dev/null
