. tests/capture/env.sh; xplane-stat capture --nvtx -o - -- $FAKE_APP xla | xplane-stat --csv -
