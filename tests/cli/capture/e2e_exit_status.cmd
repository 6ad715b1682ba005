. tests/capture/env.sh; xplane-stat capture --no-stats -o $TMP/p.xplane.pb -- $FAKE_APP plain 3
