xplane-stat --reader=fast testdata/real
