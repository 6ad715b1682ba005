. tests/capture/env.sh; xplane-stat capture --nvtx --json -o $TMP/x.xplane.pb -- $FAKE_APP xla
