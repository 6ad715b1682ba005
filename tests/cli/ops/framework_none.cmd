xplane-stat ops --by framework testdata/real/nvidia_h200_capture_vector_add.xplane.pb
