. tests/capture/env.sh; xplane-stat capture --flush-interval 10us -- true
