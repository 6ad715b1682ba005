xplane-stat capture --capture-range=nvtx -- true
