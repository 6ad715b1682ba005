cd $SYNTH && xplane-stat export export.xplane.pb -o $TMP/x.json.gz && xplane-stat export export.xplane.pb -o $TMP/x.json && gzip -dc $TMP/x.json.gz | cmp - $TMP/x.json && echo same
