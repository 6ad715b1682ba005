#!/bin/bash
# On a GPU machine (the device tool), from the repository root, with .gpu/
# from tools/gpu/make-kit.sh carried: checks `xplane-stat capture` against
# CUDA events and against jax.profiler's own dumps, and saves those dumps.
# Everything goes to $OUT (report.txt, the dumps, the captures); the report
# says what to record in CAPTURE.md. Steps go on after a failing one.
set -u
O=${OUT:-/tmp/gpu-out}
K=$PWD/.gpu
W=/tmp/gpu-work
mkdir -p "$O" "$W"
exec > >(tee "$O/report.txt") 2>&1

[ -x "$K/xplane-stat" ] || { echo "no .gpu/xplane-stat: run tools/gpu/make-kit.sh here and carry .gpu"; exit 1; }
cupti=
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64 /usr/local/cuda/lib \
	$(python3 -c 'import nvidia, os; print(" ".join(os.path.join(p, s) for p in nvidia.__path__ for s in ("cu13/lib", "cuda_cupti/lib")))' 2>/dev/null); do
	[ -e "$d/libcupti.so.13" ] && { cupti=$d; break; }
done
echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
nvcc --version | tail -1
python3 -c 'import jax; print("jax", jax.__version__, jax.devices())'
echo "libcupti.so.13: ${cupti:-not found}"
export LD_LIBRARY_PATH="$K/lib${cupti:+:$cupti}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export XPLANE_STAT_INJECT=$K/libxplane-stat-inject.so PYTHONPATH=$K${PYTHONPATH:+:$PYTHONPATH}
XPS=$K/xplane-stat
step() { echo; echo "== $*"; }
run() { echo "\$ $*" >&2; "$@"; echo "(exit $?)" >&2; }

step "1. a CUDA program: capture vs CUDA events"
nvcc -O2 -o "$W/vector_add" tools/gpu/vector_add.cu -lnvToolsExt 2>/dev/null ||
	nvcc -O2 -o "$W/vector_add" tools/gpu/vector_add.cu
run "$XPS" capture --nvtx -o "$O/vector_add.capture.xplane.pb" -- "$W/vector_add" 20
run "$XPS" planes "$O/vector_add.capture.xplane.pb"
run "$XPS" functions --json "$O/vector_add.capture.xplane.pb" >"$W/va.json"
cat "$W/va.json"

step "2. a jitted matmul: capture vs jax.profiler (separate runs of the same script)"
rm -rf "$W/prof_matmul"
run python3 tools/gpu/jax_matmul.py "$W/prof_matmul"
dump=$(find "$W/prof_matmul" -name '*.xplane.pb' | head -1)
[ -n "$dump" ] && cp "$dump" "$O/nvidia_jax_matmul.xplane.pb"
run "$XPS" planes "$O/nvidia_jax_matmul.xplane.pb"
run "$XPS" "$O/nvidia_jax_matmul.xplane.pb"
run "$XPS" capture --nvtx -o "$O/matmul.capture.xplane.pb" -- python3 tools/gpu/jax_matmul.py
run "$XPS" planes "$O/matmul.capture.xplane.pb"

step "3. two autotune candidates x5: autotune on the capture vs on jax.profiler's dump"
rm -rf "$W/prof_autotune"
run python3 tools/gpu/jax_autotune.py "$W/prof_autotune"
dump=$(find "$W/prof_autotune" -name '*.xplane.pb' | head -1)
[ -n "$dump" ] && cp "$dump" "$O/nvidia_jax_autotune.xplane.pb"
run "$XPS" autotune "$O/nvidia_jax_autotune.xplane.pb"
run "$XPS" capture --nvtx --no-stats -o "$O/autotune.capture.xplane.pb" -- python3 tools/gpu/jax_autotune.py
run "$XPS" autotune "$O/autotune.capture.xplane.pb"

step "4. capture and jax.profiler in one process (expect the 'CUPTI is already in use' note)"
run "$XPS" capture --nvtx --no-stats -o "$W/both.xplane.pb" -- python3 tools/gpu/jax_matmul.py "$W/prof_both"

step "5. NVTX: do XLA's ranges arrive? (names on /host:NVTX of the matmul capture)"
python3 - "$O/matmul.capture.xplane.pb" <<'PY'
import collections, sys
import xplane_pb2
s = xplane_pb2.XSpace()
s.ParseFromString(open(sys.argv[1], "rb").read())
for p in s.planes:
    if p.name.startswith("/host:"):
        names = collections.Counter(p.event_metadata[e.metadata_id].name.split("#")[0]
                                    for l in p.lines for e in l.events)
        print(p.name, len(p.lines), "lines;", names.most_common(8))
print("warnings:", list(s.warnings))
PY
ls -l "$O"
