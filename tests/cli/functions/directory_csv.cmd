xplane-stat --csv testdata/real
