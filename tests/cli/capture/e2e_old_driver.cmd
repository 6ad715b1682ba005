. tests/capture/env.sh; FAKE_CUDA_VERSION=12040 xplane-stat capture --no-stats -o $TMP/p.xplane.pb -- $FAKE_APP plain
