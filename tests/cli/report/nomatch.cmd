xplane-stat report testdata/real/tpu_v6e_inference.xplane.pb -d nosuch -o $TMP/r.html; rc=$?; ls $TMP; exit $rc
