require script; unset NO_COLOR; script -qc "$bin diff --level autotune $SYNTH/diff/base $SYNTH/diff/slow" /dev/null | tr -d '\r' | sed -n 1,4p | cat -v | cut -c1-40
