#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# On a GPU machine (the device tool), from the repository root, with .gpu/
# from tools/gpu/make-kit.sh carried: saves jax.profiler's dumps of the JAX
# scripts here (the candidates for testdata/real/), then checks
# `xplane-stat capture` against CUDA events and against those dumps.
# Everything lands in one archive, $OUT/gpu-kit.tar.gz (the device tool
# brings back at most 8 files), and the report also as $OUT/report.txt; the
# report says what to record in CAPTURE.md. Steps go on after a failing one;
# each command is stopped after STEP_S seconds, and steps not begun by
# DEADLINE_S seconds are skipped (and say so), so the archive is written
# well inside the device call's limit.
#
# Like with like: the programs call cudaProfilerStart/Stop around the runs
# they measure, and the captures use --capture-range=cudaProfilerApi, so a
# capture holds the same runs as jax.profiler's trace (not the warm-up,
# compilation or XLA's autotuning kernels).
set -u
R=${OUT:-/tmp/gpu-out}
K=$PWD/.gpu
W=/tmp/gpu-work
O=$W/out
STEP_S=${STEP_S:-120}
DEADLINE_S=${DEADLINE_S:-360}
rm -rf "$W"
mkdir -p "$R" "$O"
exec 3>&1 >"$O/report.txt" 2>&1
finish() {
	ls -l "$O"
	tar -C "$W" -czf "$R/gpu-kit.tar.gz" out
	cp "$O/report.txt" "$R/report.txt"
	cat "$O/report.txt" >&3
}
trap finish EXIT

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
python3 -c 'import jax, jaxlib; print("jax", jax.__version__, "jaxlib", jaxlib.__version__, jax.devices())'
echo "libcupti.so.13: ${cupti:-not found}"
[ -n "$cupti" ] && python3 -c 'import ctypes, sys; l = ctypes.CDLL(sys.argv[1]); v = ctypes.c_uint32(); print("cuptiGetVersion ->", l.cuptiGetVersion(ctypes.byref(v)), "version", v.value)' "$cupti/libcupti.so.13"
echo "nvcc: ${nvcc:-not found}"
export LD_LIBRARY_PATH="$K/lib${cupti:+:$cupti}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export XPLANE_STAT_INJECT=$K/libxplane-stat-inject.so PYTHONPATH=$K${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
XPS=$K/xplane-stat
# The JAX scripts run from a neutral folder: their path is in the dumps' HLO
# metadata (source_file), and the dumps go into testdata/real/.
S=/kit
{ mkdir -p "$S" && cp tools/gpu/*.py "$S/"; } 2>/dev/null || S=$PWD/tools/gpu
echo "JAX scripts run from $S"
late=0
step() {
	echo
	if [ -n "${ONLY:-}" ] && ! printf ' %s ' "$ONLY" | grep -q " ${1%%.*} "; then
		echo "== not chosen (ONLY=$ONLY): $*"
		return 1
	fi
	if [ "$SECONDS" -ge "$DEADLINE_S" ]; then
		echo "== SKIPPED (past ${DEADLINE_S} s at ${SECONDS} s): $*"
		late=1
		return 1
	fi
	echo "== $* (at ${SECONDS} s)"
	late=0
}
run() { echo "\$ $*"; timeout -k 5 "$STEP_S" "$@"; echo "(exit $?)"; }
# keep_dumps DIR NAME: every dump under DIR as $O/nvidia_jax_NAME[_i].xplane.pb
keep_dumps() {
	local i=0 dump
	for dump in $(find "$1" -name '*.xplane.pb' | sort); do
		if [ "$i" -eq 0 ]; then cp "$dump" "$O/nvidia_jax_$2.xplane.pb"; else cp "$dump" "$O/nvidia_jax_$2_$i.xplane.pb"; fi
		i=$((i + 1))
	done
	echo "kept $i dump(s) as nvidia_jax_$2*"
}
# jax_dump_as NAME AS [ARGS]: tools/gpu/jax_NAME.py under jax.profiler, its dumps kept as nvidia_jax_AS*
jax_dump_as() {
	local name=$1 as=$2
	shift 2
	rm -rf "$W/prof_$as"
	run python3 "$S/jax_$name.py" "$W/prof_$as" "$@"
	keep_dumps "$W/prof_$as" "$as"
}
jax_dump() { jax_dump_as "$1" "$@"; }

step "A. real NVIDIA JAX dumps: several jitted functions, XLA's command buffers (CUDA graphs) as they come" && {
	jax_dump model
	run "$XPS" "$O/nvidia_jax_model.xplane.pb"
}
step "B. the same with command buffers off (--xla_gpu_enable_command_buffer=)" && {
	XLA_FLAGS=--xla_gpu_enable_command_buffer= jax_dump_as model model_graphs_off
}
step "C. the same with every command buffer taken (--xla_gpu_graph_min_graph_size=1)" && {
	XLA_FLAGS=--xla_gpu_graph_min_graph_size=1 jax_dump_as model model_graphs_min1
}
step "D. a memory-heavy run" && {
	jax_dump memory
	cp "$W/prof_memory/memory.prof" "$O/nvidia_jax_memory.prof" 2>/dev/null
}
step "E. one run as two processes' files (jax.distributed on one GPU)" && {
	rm -rf "$W/prof_two"
	port=$((20000 + RANDOM % 20000))
	timeout -k 5 "$STEP_S" python3 "$S/jax_two_proc.py" "$W/prof_two/p0" 0 "$port" >"$W/two0.log" 2>&1 &
	p0=$!
	timeout -k 5 "$STEP_S" python3 "$S/jax_two_proc.py" "$W/prof_two/p1" 1 "$port" >"$W/two1.log" 2>&1
	echo "process 1 exit $?"
	wait "$p0"
	echo "process 0 exit $?"
	cat "$W/two0.log" "$W/two1.log" | grep -v '^$' | tail -n 20
	if [ -z "$(find "$W/prof_two" -name '*.xplane.pb' 2>/dev/null)" ]; then
		echo "jax.distributed gave no dumps: the two processes again without it (DISTRIBUTED=0)"
		rm -rf "$W/prof_two"
		DISTRIBUTED=0 timeout -k 5 "$STEP_S" python3 "$S/jax_two_proc.py" "$W/prof_two/p0" 0 0 &
		p0=$!
		DISTRIBUTED=0 run python3 "$S/jax_two_proc.py" "$W/prof_two/p1" 1 0
		wait "$p0"
	fi
	keep_dumps "$W/prof_two/p0" two_proc_p0
	keep_dumps "$W/prof_two/p1" two_proc_p1
}
step "F. autotune: two candidates x5, three profiles" && {
	jax_dump autotune 3
	run "$XPS" autotune "$W/prof_autotune"
}
step "0. capture diagnostics: which API calls CUPTI records (XPLANE_STAT_CAPTURE_DEBUG, _API=all)" && {
	if [ -n "$nvcc" ] && timeout 120 "$nvcc" -O2 -arch=sm_90 -o "$W/vector_add" tools/gpu/vector_add.cu; then
		XPLANE_STAT_CAPTURE_DEBUG=1 run "$XPS" capture --nvtx --capture-range cudaProfilerApi -o "$O/vector_add.debug.capture.xplane.pb" -- "$W/vector_add" 5
		run "$XPS" planes "$O/vector_add.debug.capture.xplane.pb"
		XPLANE_STAT_CAPTURE_API=all run "$XPS" capture --nvtx --capture-range cudaProfilerApi -o "$O/vector_add.all.capture.xplane.pb" -- "$W/vector_add" 5
		run "$XPS" planes "$O/vector_add.all.capture.xplane.pb"
		XPLANE_STAT_CAPTURE_API=all run "$XPS" capture --nvtx -o "$O/vector_add.all_norange.capture.xplane.pb" -- "$W/vector_add" 5
		run "$XPS" planes "$O/vector_add.all_norange.capture.xplane.pb"
	fi
	XPLANE_STAT_CAPTURE_API=all run "$XPS" capture --nvtx --capture-range cudaProfilerApi -o "$O/matmul.all.capture.xplane.pb" -- python3 $S/jax_matmul.py
	run "$XPS" planes "$O/matmul.all.capture.xplane.pb"
	run "$XPS" "$O/matmul.all.capture.xplane.pb"
	XPLANE_STAT_CAPTURE_API=all run "$XPS" capture --nvtx --capture-range cudaProfilerApi --no-stats -o "$O/autotune.all.capture.xplane.pb" -- python3 $S/jax_autotune.py
	run "$XPS" autotune "$O/autotune.all.capture.xplane.pb"
}

step "P. the Python package against real JAX (xplane_stat.jax)" && {
	PYTHONPATH=$K/python${PYTHONPATH:+:$PYTHONPATH} XPLANE_STAT_LIBRARY=$K/libxplane-stat.so.0 XPS=$XPS \
		run python3 "$S/py_check.py" "$W/py"
}

step "Q. the pytest plugin against real JAX (xplane_bench, summary lines, a gate against itself)" && {
	export PYTHONPATH=$K/python${PYTHONPATH:+:$PYTHONPATH} XPLANE_STAT_LIBRARY=$K/libxplane-stat.so.0 XPLANE_STAT=$XPS
	rm -f "$W/bench.jsonl"
	(cd "$S" && run python3 -m pytest -p xplane_stat.pytest_plugin -p no:cacheprovider -v \
		--xplane-stat-out "$W/bench.jsonl" test_plugin_gpu.py)
	run "$XPS" diff "$W/bench.jsonl" "$W/bench.jsonl"
	(cd "$S" && run python3 -m pytest -q -p xplane_stat.pytest_plugin -p no:cacheprovider \
		--xplane-stat-gate 5 "$W/bench.jsonl" test_plugin_gpu.py)
	cp "$W/bench.jsonl" "$O/" 2>/dev/null
}

step "1. a CUDA program: capture vs CUDA events (kernels, copies, memset; XLA-style NVTX with a registered string)" && {
	if [ -n "$nvcc" ] && timeout 120 "$nvcc" -O2 -arch=sm_90 -o "$W/vector_add" tools/gpu/vector_add.cu; then
		run "$XPS" capture --nvtx --capture-range cudaProfilerApi -o "$O/vector_add.capture.xplane.pb" -- "$W/vector_add" 20
		run "$XPS" planes "$O/vector_add.capture.xplane.pb"
		run "$XPS" functions --json "$O/vector_add.capture.xplane.pb"
	else
		echo "SKIPPED: no nvcc, or it failed: step 1 not done"
	fi
}

step "2. a jitted matmul: capture vs jax.profiler (separate runs of the same script)" && {
	jax_dump matmul
	run "$XPS" planes "$O/nvidia_jax_matmul.xplane.pb"
	run "$XPS" "$O/nvidia_jax_matmul.xplane.pb"
	run "$XPS" capture --nvtx --capture-range cudaProfilerApi -o "$O/matmul.capture.xplane.pb" -- python3 $S/jax_matmul.py
	run "$XPS" planes "$O/matmul.capture.xplane.pb"
	run "$XPS" "$O/matmul.capture.xplane.pb"
}

step "3. two autotune candidates x5: autotune on the capture vs on jax.profiler's dump (F's first profile)" && {
	run "$XPS" autotune "$O/nvidia_jax_autotune.xplane.pb"
	run "$XPS" capture --nvtx --capture-range cudaProfilerApi --no-stats -o "$O/autotune.capture.xplane.pb" -- python3 $S/jax_autotune.py
	run "$XPS" autotune "$O/autotune.capture.xplane.pb"
}

step "G. the model's functions (command buffers as they come): capture vs jax.profiler (A's dump)" && {
	run "$XPS" capture --nvtx --capture-range cudaProfilerApi -o "$O/model.capture.xplane.pb" -- python3 $S/jax_model.py
	run "$XPS" "$O/model.capture.xplane.pb"
	run "$XPS" "$O/nvidia_jax_model.xplane.pb"
	run "$XPS" kernels "$O/model.capture.xplane.pb"
}

step "4. capture and jax.profiler in one process" && {
	# The capture library subscribes to CUPTI inside cuInit, early; jax.profiler
	# subscribes when its trace starts, later. Expected: XLA's profiler is the one
	# refused (an error in its log, a dump without device events), the capture works.
	rm -rf "$W/prof_both"
	run "$XPS" capture --nvtx --capture-range cudaProfilerApi --no-stats -o "$O/both.capture.xplane.pb" -- python3 $S/jax_matmul.py "$W/prof_both"
	run "$XPS" planes "$O/both.capture.xplane.pb"
	keep_dumps "$W/prof_both" both_in_capture
	[ -e "$O/nvidia_jax_both_in_capture.xplane.pb" ] && run "$XPS" planes "$O/nvidia_jax_both_in_capture.xplane.pb"
}

step "5. NVTX: which names reached /host:NVTX in the captures" && {
	timeout 60 python3 - "$O/matmul.capture.xplane.pb" "$O/vector_add.capture.xplane.pb" <<'PY'
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
}
echo
echo "== done at ${SECONDS} s"
