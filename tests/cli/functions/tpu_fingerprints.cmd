xplane-stat testdata/real/tpu_v6e_inference.xplane.pb | awk '/^jit/ { print $1, $2 }' | sort; xplane-stat --csv testdata/real/tpu_v6e_inference.xplane.pb | cut -d, -f1,2 | sort
