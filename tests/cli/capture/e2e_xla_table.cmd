. tests/capture/env.sh; mkdir $TMP/t; TMPDIR=$TMP/t xplane-stat capture --nvtx -o $TMP/x.xplane.pb -- $FAKE_APP xla && ls -A $TMP/t
