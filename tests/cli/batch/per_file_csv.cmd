xplane-stat --per-file --csv testdata/real
