# SPDX-License-Identifier: Apache-2.0
# Sourced first by the checks run as `CHECK BIN SYNTH_DIR` after setting
# $root (the repository root, which they find from their own place): $bin
# and $synth from the arguments, $tmp a directory removed at exit, the
# working directory the root, and $fail and $runs at 0.
set -u
bin=$1 synth=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root" || exit 1
fail=0 runs=0
