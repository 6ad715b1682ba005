cd $SYNTH/../bad && cat gpu.xplane.pb | xplane-stat --max-input-size 100 -; echo "exit $?"; xplane-stat --max-input-size 100 --csv - <gpu.xplane.pb; echo "exit $?"
