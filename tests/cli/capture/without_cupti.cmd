CAP_WANT=without; . tests/capture/env.sh; xplane-stat capture -o $TMP/x.xplane.pb -- true
