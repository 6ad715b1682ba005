. tests/capture/env.sh; FAKE_CUPTI_BUSY='Nsight Systems' xplane-stat capture -o $TMP/b.xplane.pb -- $FAKE_APP plain 2>$TMP/err; rc=$?; sed "s/process [0-9][0-9]*/process PID/" $TMP/err >&2; exit $rc
