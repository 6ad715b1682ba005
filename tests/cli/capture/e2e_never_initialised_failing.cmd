. tests/capture/env.sh; xplane-stat capture -o $TMP/n.xplane.pb -- $FAKE_APP nocuda 5
