. tests/capture/env.sh; XPLANE_STAT_INJECT=$XPS_NEEDS_GONE xplane-stat capture -o $TMP/x.xplane.pb -- $FAKE_APP nocuda; rc=$?; test ! -e $TMP/x.xplane.pb && echo "no file written"; exit $rc
