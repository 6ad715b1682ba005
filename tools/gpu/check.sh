#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# On a GPU machine (the device tool), from the repository root, with .gpu/
# from tools/gpu/make-kit.sh carried: checks `xplane-stat capture` against
# CUDA events and against jax.profiler's own dumps, and saves those dumps.
# Everything goes to $OUT (report.txt, the dumps, the captures); the report
# says what to record in CAPTURE.md. Steps go on after a failing one.
#
# Like with like: the programs call cudaProfilerStart/Stop around the runs
# they measure, and the captures use --capture-range=cudaProfilerApi, so a
# capture holds the same runs as jax.profiler's trace (not the warm-up,
# compilation or XLA's autotuning kernels).
set -u
O=${OUT:-/tmp/gpu-out}
K=$PWD/.gpu
W=/tmp/gpu-work
mkdir -p "$O" "$W"
exec 3>&1 >"$O/report.txt" 2>&1
trap 'cat "$O/report.txt" >&3' EXIT

[ -x "$K/xplane-stat" ] || { echo "no .gpu/xplane-stat: run tools/gpu/make-kit.sh here and carry .gpu"; exit 1; }
nvidia_dirs=$(python3 -c 'import nvidia; print(" ".join(nvidia.__path__))' 2>/dev/null)
cupti=
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64 /usr/local/cuda/lib; do
	[ -e "$d/libcupti.so.13" ] && { cupti=$d; break; }
done
for n in $nvidia_dirs; do
	for sub in cu13/lib cuda_cupti/lib; do
		[ -z "$cupti" ] && [ -e "$n/$sub/libcupti.so.13" ] && cupti=$n/$sub
	done
done
nvcc=$(command -v nvcc || true)
for d in /usr/local/cuda/bin $(for n in $nvidia_dirs; do echo "$n/cu13/bin"; done); do
	[ -z "$nvcc" ] && [ -x "$d/nvcc" ] && nvcc=$d/nvcc
done
echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -c 'import jax; print("jax", jax.__version__, jax.devices())'
echo "libcupti.so.13: ${cupti:-not found}"
echo "nvcc: ${nvcc:-not found}"
export LD_LIBRARY_PATH="$K/lib${cupti:+:$cupti}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export XPLANE_STAT_INJECT=$K/libxplane-stat-inject.so PYTHONPATH=$K${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1
XPS=$K/xplane-stat
step() { echo; echo "== $*"; }
run() { echo "\$ $*"; "$@"; echo "(exit $?)"; }
# jax_dump NAME: tools/gpu/jax_NAME.py under jax.profiler, its dump kept as $O/nvidia_jax_NAME.xplane.pb
jax_dump() {
	rm -rf "$W/prof_$1"
	run python3 "tools/gpu/jax_$1.py" "$W/prof_$1"
	dump=$(find "$W/prof_$1" -name '*.xplane.pb' | head -1)
	[ -n "$dump" ] && cp "$dump" "$O/nvidia_jax_$1.xplane.pb"
}

step "1. a CUDA program: capture vs CUDA events (kernels, copies, memset; XLA-style NVTX with a registered string)"
if [ -n "$nvcc" ] && "$nvcc" -O2 -arch=sm_90 -o "$W/vector_add" tools/gpu/vector_add.cu; then
	run "$XPS" capture --nvtx --capture-range cudaProfilerApi -o "$O/vector_add.capture.xplane.pb" -- "$W/vector_add" 20
	run "$XPS" planes "$O/vector_add.capture.xplane.pb"
	run "$XPS" functions --json "$O/vector_add.capture.xplane.pb"
else
	echo "SKIPPED: no nvcc, or it failed: step 1 not done"
fi

step "2. a jitted matmul: capture vs jax.profiler (separate runs of the same script)"
jax_dump matmul
run "$XPS" planes "$O/nvidia_jax_matmul.xplane.pb"
run "$XPS" "$O/nvidia_jax_matmul.xplane.pb"
run "$XPS" capture --nvtx --capture-range cudaProfilerApi -o "$O/matmul.capture.xplane.pb" -- python3 tools/gpu/jax_matmul.py
run "$XPS" planes "$O/matmul.capture.xplane.pb"

step "3. two autotune candidates x5: autotune on the capture vs on jax.profiler's dump"
jax_dump autotune
run "$XPS" autotune "$O/nvidia_jax_autotune.xplane.pb"
run "$XPS" capture --nvtx --capture-range cudaProfilerApi --no-stats -o "$O/autotune.capture.xplane.pb" -- python3 tools/gpu/jax_autotune.py
run "$XPS" autotune "$O/autotune.capture.xplane.pb"

step "4. capture and jax.profiler in one process"
# The capture library subscribes to CUPTI inside cuInit, early; jax.profiler
# subscribes when its trace starts, later. Expected: XLA's profiler is the one
# refused (an error in its log, a dump without device events), the capture works.
rm -rf "$W/prof_both"
run "$XPS" capture --nvtx --capture-range cudaProfilerApi --no-stats -o "$W/both.xplane.pb" -- python3 tools/gpu/jax_matmul.py "$W/prof_both"
run "$XPS" planes "$W/both.xplane.pb"
dump=$(find "$W/prof_both" -name '*.xplane.pb' | head -1)
[ -n "$dump" ] && run "$XPS" planes "$dump"

step "5. NVTX: which names reached /host:NVTX in the matmul capture"
python3 - "$O/matmul.capture.xplane.pb" "$O/vector_add.capture.xplane.pb" <<'PY'
import collections, sys
try:
    import xplane_pb2
except Exception as e:  # protobuf missing or too new for the generated module
    sys.exit(f"cannot read XSpace from Python here ({e}); the functions tables above tell whether names arrived")
for path in sys.argv[1:]:
    s = xplane_pb2.XSpace()
    try:
        s.ParseFromString(open(path, "rb").read())
    except OSError as e:
        print(path, e)
        continue
    print(path)
    for p in s.planes:
        if p.name.startswith("/host:"):
            names = collections.Counter(p.event_metadata[e.metadata_id].name.split("#")[0]
                                        for l in p.lines for e in l.events)
            print(" ", p.name, len(p.lines), "lines;", names.most_common(8))
    print("  warnings:", list(s.warnings))
PY
ls -l "$O"
