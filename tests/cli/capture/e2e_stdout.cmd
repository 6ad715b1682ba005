. tests/capture/env.sh; xplane-stat capture --nvtx -o - -- sh -c "echo the program says hello; exec $FAKE_APP xla" 2>$TMP/err | xplane-stat --csv -; cat $TMP/err
