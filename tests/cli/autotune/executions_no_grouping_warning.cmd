xplane-stat autotune --samples executions --id-regex '^jit_(step)' $SYNTH/sessions/mixed && xplane-stat autotune --id-regex '^jit_(step)' $SYNTH/sessions/mixed >/dev/null
