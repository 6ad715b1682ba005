. tests/capture/env.sh; xplane-stat capture --nvtx --time-unit ns -o $TMP/x.xplane.pb -- $FAKE_APP xla && xplane-stat capture --nvtx --tsv -o $TMP/x.xplane.pb -- $FAKE_APP xla
