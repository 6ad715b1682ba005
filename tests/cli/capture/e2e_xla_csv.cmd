. tests/capture/env.sh; xplane-stat capture --nvtx --csv -o $TMP/x.xplane.pb -- $FAKE_APP xla
