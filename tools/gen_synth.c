/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_synth - write synthetic XPlane traces whose analysis results are
 * known exactly (see tests/synth/EXPECTED.md for the hand-computed answers).
 *
 * Usage: gen_synth OUTDIR [SCENARIO...]   (default: every scenario)
 *
 * Each scenario below writes its files into OUTDIR; the table at the end
 * lists them. Every time is given in picoseconds relative to the plane base
 * (the smallest timestamp_ns among the plane's lines that hold events); the
 * event offset written to the file is derived from it and the line's
 * timestamp (gen_trace.h). The output is byte-for-byte deterministic: no
 * clocks, no randomness, and map entries are written in insertion order.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>

#define GEN_NAME "gen_synth"
#include "gen_trace.h"

#define NS(x) ((int64_t)(x) * 1000)		/* nanoseconds to ps */

/* ---- scenarios ------------------------------------------------------ */

/* A GPU kernel of function MODULE; PID < 0 means no program_id stat. */
static XEvent *kernel(struct gen_plane *p, XLine *ln, const char *name, const char *module,
		      int64_t pid, int64_t start_ps, int64_t dur_ps)
{
	XEvent *ev = gen_ev_add(p, ln, name, start_ps, dur_ps);

	if (module)
		gen_ev_str(p, ev, "hlo_module", module);
	if (pid >= 0)
		gen_ev_i64(p, ev, "program_id", pid);
	return ev;
}

/* Unrelated host activity: must never produce a function row. */
static void host_noise(XSpace *sp)
{
	struct gen_plane h = gen_plane_add(sp, 100, "/host:CPU", 3000);
	XLine *py = gen_line_add(&h, 1, "python", 3000);

	gen_ev_add(&h, py, "PjitFunction(f)", US(1), US(40));
	gen_ev_add(&h, py, "PjitFunction(g)", US(50), US(40));
	gen_ev_add(&h, py, "np.asarray", US(95), US(3));
}

/*
 * TPU:0 XLA Ops line: ops nested in the module events, named fusion.* and
 * copy.*, overlapping each other, one straddling a module end and one
 * outside every module (the --children cases).  The line starts 2 ns after
 * the plane base.
 */
static void tpu0_ops(struct gen_plane *p)
{
	XLine *ops = gen_line_add(p, 2, "XLA Ops", 1002);

	/* inside jit_f run 1 [10, 20] us */
	gen_ev_add(p, ops, "fusion.1", US(11), US(3));
	gen_ev_add(p, ops, "fusion.2", US(13), US(3));
	gen_ev_add(p, ops, "copy.1", US(15), US(2));
	gen_ev_add(p, ops, "fusion.3", US(18), US(1));
	gen_ev_add(p, ops, "fusion.4", NS(19500), NS(1500));	/* ends at 21: not contained */
	/* inside jit_g program 7 [30, 50] us */
	gen_ev_add(p, ops, "copy.2", US(31), US(4));
	gen_ev_add(p, ops, "copy.3", US(33), US(4));
	gen_ev_add(p, ops, "fusion.5", US(40), US(8));
	/* inside jit_f run 2 [60, 72] us: exactly the module's bounds */
	gen_ev_add(p, ops, "fusion.6", US(60), US(12));
	/* inside jit_g program 8 [80, 110] us */
	gen_ev_add(p, ops, "fusion.7", US(85), US(10));
	gen_ev_add(p, ops, "fusion.8", US(90), US(10));
	gen_ev_add(p, ops, "copy.4", US(100), US(5));
	/* between modules */
	gen_ev_add(p, ops, "copy.5", US(112), US(3));
	/* jit_f run 3 [120, 134] us has no ops */
}

/*
 * TPU:0 XLA Modules line.  jit_f is named by stripping the "(123456)"
 * fingerprint and has only run_id (1, 2, 3).  jit_g is named by an
 * hlo_module ref_value stat (its metadata is called "cluster_g(42)"), its
 * program_id 7 sits on the event metadata, and its second event overrides
 * it with its own program_id 8.
 */
static void tpu0_modules(struct gen_plane *p)
{
	XLine *mod = gen_line_add(p, 1, "XLA Modules", 1000);
	XEvent *ev;

	gen_md_i64(p, "cluster_g(42)", "program_id", 7);

	ev = gen_ev_add(p, mod, "jit_f(123456)", US(10), US(10));
	gen_ev_i64(p, ev, "run_id", 1);
	ev = gen_ev_add(p, mod, "cluster_g(42)", US(30), US(20));
	gen_ev_ref(p, ev, "hlo_module", "jit_g");
	ev = gen_ev_add(p, mod, "jit_f(123456)", US(60), US(12));
	gen_ev_i64(p, ev, "run_id", 2);
	ev = gen_ev_add(p, mod, "cluster_g(42)", US(80), US(30));
	gen_ev_ref(p, ev, "hlo_module", "jit_g");
	gen_ev_i64(p, ev, "program_id", 8);
	ev = gen_ev_add(p, mod, "jit_f(123456)", US(120), US(14));
	gen_ev_i64(p, ev, "run_id", 3);
}

/* Scenario 1: TPU-style planes (XLA Modules / XLA Ops), two devices. */
static void synth_tpu_basic(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane t0, t1;
	XLine *mod, *ops;
	XEvent *ev;

	host_noise(sp);

	t0 = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	tpu0_modules(&t0);
	tpu0_ops(&t0);

	/* TPU:1: one more execution of jit_f, run_id 1, 16 us, one 2 us op. */
	t1 = gen_plane_add(sp, 2, "/device:TPU:1", 5000);
	mod = gen_line_add(&t1, 1, "XLA Modules", 5000);
	ops = gen_line_add(&t1, 2, "XLA Ops", 5000);
	ev = gen_ev_add(&t1, mod, "jit_f(123456)", US(2), US(16));
	gen_ev_i64(&t1, ev, "run_id", 1);
	gen_ev_add(&t1, ops, "fusion.1", US(3), US(2));

	gen_space_write(sp, dir, "tpu_basic.xplane.pb");
}

/*
 * Module names without the "(digits)" suffix XLA usually appends: jit_f
 * three times (10, 12, 14 us), jit_plain once (20 us) on TPU:0. The names
 * handed out by the execution finder must be copies: summarize, autotune
 * and diff write them after the trace is freed.
 */
static void synth_tpu_plain_names(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane t0 = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	XLine *mod = gen_line_add(&t0, 1, "XLA Modules", 1000);

	gen_ev_add(&t0, mod, "jit_f", US(10), US(10));
	gen_ev_add(&t0, mod, "jit_plain", US(30), US(20));
	gen_ev_add(&t0, mod, "jit_f", US(60), US(12));
	gen_ev_add(&t0, mod, "jit_f", US(120), US(14));
	gen_space_write(sp, dir, "tpu_plain_names.xplane.pb");
}

/*
 * Scenario 2: line timestamps near 1.7e18 ns, so timestamp_ns * 1000
 * overflows int64 (and loses precision as a double); an empty line with
 * timestamp 0 must not pull the plane base down.  Three kernels of jit_epoch
 * on two streams: busy (union) 5000 ps, sum 6000 ps, span 7000 ps.
 */
static void synth_epoch(const char *dir)
{
	const int64_t t = INT64_C(1700000000123456789);
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", t);
	XLine *s13 = gen_line_add(&g, 1, "Stream #13(Compute)", t);
	XLine *s14 = gen_line_add(&g, 2, "Stream #14(Compute)", t + 1000);

	gen_line_add(&g, 3, "Stream #15(MemcpyD2H)", 0);
	kernel(&g, s13, "fusion_a", "jit_epoch", 1, 999000, 3000);
	kernel(&g, s14, "fusion_b", "jit_epoch", 1, 1001000, 2000);
	kernel(&g, s13, "fusion_c", "jit_epoch", 1, 1005000, 1000);

	gen_space_write(sp, dir, "epoch.xplane.pb");
}

/*
 * Scenario 3: executions by the runs rule (no host plane).  jit_step
 * (program 5) and jit_other (program 6) alternate on Stream #7 and
 * Stream #8; kernels overlap across streams inside an execution; an
 * untagged kernel sits inside a jit_step run without breaking it; one
 * jit_step kernel has no program_id and forms its own run.  jit_other's
 * stats sit on its kernels' event metadata except for one kernel.  Stream #8
 * is the earlier line: it sets the plane base, Stream #7 starts 1 us later.
 */
static void synth_gpu_runs(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 1000);
	XLine *s7 = gen_line_add(&g, 1, "Stream #7(Compute)", 2000);
	XLine *s8 = gen_line_add(&g, 2, "Stream #8(MemcpyH2D)", 1000);

	gen_md_str(&g, "other_kernel", "hlo_module", "jit_other");
	gen_md_i64(&g, "other_kernel", "program_id", 6);

	/* X1 jit_step: busy [1,10] + [11,12] = 10 us */
	kernel(&g, s7, "fusion_1", "jit_step", 5, US(1), US(6));
	kernel(&g, s8, "memcpy_1", "jit_step", 5, US(5), US(5));
	kernel(&g, s7, "fusion_2", "jit_step", 5, US(11), US(1));
	/* X2 jit_other (metadata-level stats): 3 + 1 = 4 us */
	gen_ev_add(&g, s7, "other_kernel", US(13), US(3));
	gen_ev_add(&g, s7, "other_kernel", US(17), US(1));
	/* X3 jit_step: [19,21] + [24,26] = 4 us; untagged kernel at [22,23] */
	kernel(&g, s7, "fusion_3", "jit_step", 5, US(19), US(2));
	kernel(&g, s7, "untagged_kernel", NULL, -1, US(22), US(1));
	kernel(&g, s8, "memcpy_2", "jit_step", 5, US(24), US(2));
	kernel(&g, s7, "fusion_4", "jit_step", 5, US(25), US(1));
	/* X4 jit_step without program_id: 3 us */
	kernel(&g, s7, "fusion_5", "jit_step", -1, US(27), US(3));
	/* X5 jit_step: [31,32] + [32,33] touching = 2 us */
	kernel(&g, s7, "fusion_6", "jit_step", 5, US(31), US(1));
	kernel(&g, s8, "memcpy_3", "jit_step", 5, US(32), US(1));
	/* X6 jit_other: [34,37] u [36,41] = 7 us; second kernel has event-level stats */
	gen_ev_add(&g, s7, "other_kernel", US(34), US(3));
	kernel(&g, s8, "other_memcpy", "jit_other", 6, US(36), US(5));
	/* X7 jit_step: [42,54] u [51,59] + [61,64] = 17 + 3 = 20 us */
	kernel(&g, s7, "fusion_7", "jit_step", 5, US(42), US(12));
	kernel(&g, s8, "memcpy_4", "jit_step", 5, US(51), US(8));
	kernel(&g, s7, "fusion_8", "jit_step", 5, US(61), US(3));

	gen_space_write(sp, dir, "gpu_runs.xplane.pb");
}

/* A cuLaunchKernel host event with correlation id CORR. */
static void launch(struct gen_plane *h, XLine *ln, int64_t start_ps, uint64_t corr)
{
	XEvent *ev = gen_ev_add(h, ln, "cuLaunchKernel", start_ps, US(1));

	gen_ev_u64(h, ev, "correlation_id", corr);
}

/* A GpuExecutable::ExecuteThunks host event for MODULE. */
static void thunks(struct gen_plane *h, XLine *ln, int64_t start_ps, int64_t dur_ps,
		   const char *module)
{
	XEvent *ev = gen_ev_add(h, ln, "GpuExecutable::ExecuteThunks", start_ps, dur_ps);

	gen_ev_str(h, ev, "module_name", module);
}

/*
 * Scenario 4: host linkage.  Two back-to-back ExecuteThunks of jit_train,
 * each launching two kernels; on the device the four kernels form a single
 * run, so host linkage gives 2 executions (5 us, 6 us) and the runs rule 1
 * (11 us).  Host Threads/100 starts 10 ns after the host plane base.
 */
static void synth_gpu_host(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 5000);
	struct gen_plane h = gen_plane_add(sp, 2, "/host:CPU", 4000);
	XLine *s7 = gen_line_add(&g, 1, "Stream #7(Compute)", 5000);
	XLine *py = gen_line_add(&h, 1, "python", 4000);
	XLine *th = gen_line_add(&h, 2, "Host Threads/100", 4010);
	XEvent *ev;
	static const struct {
		int64_t start_us, dur_us;
		uint64_t corr;
	} k[] = { { 0, 3, 101 }, { 4, 2, 102 }, { 7, 5, 103 }, { 13, 1, 104 } };
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		ev = kernel(&g, s7, "train_kernel", "jit_train", 3,
			    US(k[i].start_us), US(k[i].dur_us));
		gen_ev_u64(&g, ev, "correlation_id", k[i].corr);
	}

	thunks(&h, py, US(10), US(20), "jit_train");
	thunks(&h, py, US(30), US(20), "jit_train");
	launch(&h, th, US(12), 101);
	launch(&h, th, US(15), 102);
	launch(&h, th, US(32), 103);
	launch(&h, th, US(36), 104);

	gen_space_write(sp, dir, "gpu_host.xplane.pb");
}

/*
 * Scenario 7: host linkage on two GPUs whose executor threads overlap in
 * time. Each device's ExecuteThunks run on its own line (py_xla_execute/1 for
 * GPU:0, /2 for GPU:1) and its launches on another (Host Threads/10, /20).
 * Launches fall inside both devices' ExecuteThunks, so "the latest enclosing
 * event" would mix devices; pairing each launch line with the executor line
 * that encloses most of its launches (L10 -> /1: 4 of 4 vs 3; L20 -> /2: 4 vs 1)
 * gives 2 executions per device. Kernel [start, end] in us, busy per execution:
 *   GPU:0: K1 [0,2] K2 [3,5] | K3 [6,9] K4 [10,11]   -> 4, 4
 *   GPU:1: K11 [0,1] K12 [2,4] | K13 [5,10] K14 [11,12] -> 3, 6
 * (the runs rule would give one execution per device: 8 and 9 us).
 */
static void synth_gpu_host_multi(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g0 = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	struct gen_plane g1 = gen_plane_add(sp, 2, "/device:GPU:1", 0);
	struct gen_plane h = gen_plane_add(sp, 3, "/host:CPU", 0);
	XLine *s0 = gen_line_add(&g0, 1, "Stream #1(Compute)", 0);
	XLine *s1 = gen_line_add(&g1, 1, "Stream #2(Compute)", 0);
	XLine *x0 = gen_line_add(&h, 1, "py_xla_execute/1", 0);
	XLine *x1 = gen_line_add(&h, 2, "py_xla_execute/2", 0);
	XLine *l0 = gen_line_add(&h, 3, "Host Threads/10", 0);
	XLine *l1 = gen_line_add(&h, 4, "Host Threads/20", 0);
	static const struct {
		int gpu;
		int64_t start_us, dur_us, launch_us;
		uint64_t corr;
	} k[] = {
		{ 0, 0, 2, 11, 1 }, { 0, 3, 2, 20, 2 }, { 0, 6, 3, 51, 3 }, { 0, 10, 1, 60, 4 },
		{ 1, 0, 1, 13, 11 }, { 1, 2, 2, 44, 12 }, { 1, 5, 5, 49, 13 }, { 1, 11, 1, 84, 14 },
	};
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct gen_plane *g = k[i].gpu ? &g1 : &g0;
		XEvent *ev = kernel(g, k[i].gpu ? s1 : s0, "m_kernel", "jit_m", 1,
				    US(k[i].start_us), US(k[i].dur_us));

		gen_ev_u64(g, ev, "correlation_id", k[i].corr);
		launch(&h, k[i].gpu ? l1 : l0, US(k[i].launch_us), k[i].corr);
	}
	thunks(&h, x0, US(10), US(30), "jit_m");
	thunks(&h, x0, US(50), US(30), "jit_m");
	thunks(&h, x1, US(12), US(33), "jit_m");
	thunks(&h, x1, US(48), US(37), "jit_m");

	gen_space_write(sp, dir, "gpu_host_multi.xplane.pb");
}

/*
 * Scenario 10: gpu_host's device plane with and without its host plane.
 * gpu_no_host.xplane.pb: the host plane is missing (as in a file cut before
 * it), so the four kernels with a correlation_id form one run (11 us).
 * gpu_host_partial.xplane.pb: the host plane is there and a fifth kernel
 * K5 [20, 22] us has correlation_id 999, which no launch has: ET1 {K1, K2}
 * 5 us, ET2 {K3, K4} 6 us, and K5 alone by the runs rule, 2 us.
 */
static void gpu_host_links(const char *dir, int with_host)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 5000);
	XLine *s7 = gen_line_add(&g, 1, "Stream #7(Compute)", 5000);
	XEvent *ev;
	static const struct {
		int64_t start_us, dur_us;
		uint64_t corr;
	} k[] = { { 0, 3, 101 }, { 4, 2, 102 }, { 7, 5, 103 }, { 13, 1, 104 }, { 20, 2, 999 } };
	size_t i, n = with_host ? 5 : 4;

	for (i = 0; i < n; i++) {
		ev = kernel(&g, s7, "train_kernel", "jit_train", 3,
			    US(k[i].start_us), US(k[i].dur_us));
		gen_ev_u64(&g, ev, "correlation_id", k[i].corr);
	}
	if (with_host) {
		struct gen_plane h = gen_plane_add(sp, 2, "/host:CPU", 4000);
		XLine *py = gen_line_add(&h, 1, "python", 4000);
		XLine *th = gen_line_add(&h, 2, "Host Threads/100", 4010);

		thunks(&h, py, US(10), US(20), "jit_train");
		thunks(&h, py, US(30), US(20), "jit_train");
		launch(&h, th, US(12), 101);
		launch(&h, th, US(15), 102);
		launch(&h, th, US(32), 103);
		launch(&h, th, US(36), 104);
	}
	gen_space_write(sp, dir, with_host ? "gpu_host_partial.xplane.pb" : "gpu_no_host.xplane.pb");
}

/*
 * Scenario 8: a TPU plane with two "XLA Modules" lines. Only the first is
 * the plane's device work: jit_a [0, 10] and jit_b [20, 25] us. The second
 * holds 3 events (a copy of jit_a and two of jit_c) that are not used and
 * are reported as such.
 */
static void synth_tpu_two_module_lines(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane t = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	XLine *mod = gen_line_add(&t, 1, "XLA Modules", 1000);
	XLine *ops = gen_line_add(&t, 2, "XLA Ops", 1000);
	XLine *mod2 = gen_line_add(&t, 3, "XLA Modules", 1000);

	gen_ev_add(&t, mod, "jit_a(11)", US(0), US(10));
	gen_ev_add(&t, mod, "jit_b(12)", US(20), US(5));
	gen_ev_add(&t, ops, "fusion.1", US(1), US(2));
	gen_ev_add(&t, mod2, "jit_a(11)", US(0), US(10));
	gen_ev_add(&t, mod2, "jit_c(13)", US(30), US(4));
	gen_ev_add(&t, mod2, "jit_c(13)", US(40), US(1));

	gen_space_write(sp, dir, "tpu_two_module_lines.xplane.pb");
}

/*
 * Scenario 8a: one device plane twice in a trace (dumps merged into one
 * XSpace). Both /device:TPU:0 (ids 1 and 2, base 1000 ns) hold an XLA
 * Modules and an XLA Ops line, us:
 *   first:  jit_a(11) [0, 10], jit_b(12) [20, 25]; fusion.1 [1, 9], fusion.2 [20, 24]
 *   second: jit_a(11) [0, 10], jit_c(13) [30, 34]; fusion.1 [1, 9], fusion.3 [30, 33]
 * The first is counted; the second is left out, warned.
 */
static void synth_tpu_plane_twice(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane a = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	struct gen_plane b = gen_plane_add(sp, 2, "/device:TPU:0", 1000);
	XLine *amod = gen_line_add(&a, 1, "XLA Modules", 1000);
	XLine *aops = gen_line_add(&a, 2, "XLA Ops", 1000);
	XLine *bmod = gen_line_add(&b, 1, "XLA Modules", 1000);
	XLine *bops = gen_line_add(&b, 2, "XLA Ops", 1000);

	gen_ev_add(&a, amod, "jit_a(11)", US(0), US(10));
	gen_ev_add(&a, amod, "jit_b(12)", US(20), US(5));
	gen_ev_add(&a, aops, "fusion.1", US(1), US(8));
	gen_ev_add(&a, aops, "fusion.2", US(20), US(4));
	gen_ev_add(&b, bmod, "jit_a(11)", US(0), US(10));
	gen_ev_add(&b, bmod, "jit_c(13)", US(30), US(4));
	gen_ev_add(&b, bops, "fusion.1", US(1), US(8));
	gen_ev_add(&b, bops, "fusion.3", US(30), US(3));

	gen_space_write(sp, dir, "tpu_plane_twice.xplane.pb");
}

/*
 * Scenario 9: stats of unexpected types, no host plane. GPU:0 (Stream #7,
 * base 1000 ns), kernels [start, end] us:
 *   K1 [0, 4], K2 [4, 6]  jit_s, program_id the string "21" (digits: id 21)
 *   K3 [10, 13]           hlo_module the integer 5: belongs to no function
 *   K4 [20, 25]           jit_t, program_id the string "x7": no program id
 *   K5 [30, 32]           jit_t, program_id 7, correlation_id the string "c9"
 * TPU:0 (XLA Modules, base 1000 ns): jit_u(3) [0, 8] us with hlo_module the
 * integer 9: named by its metadata, jit_u, program 3.
 */
static void synth_odd_stats(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 1000);
	struct gen_plane t = gen_plane_add(sp, 2, "/device:TPU:0", 1000);
	XLine *s7 = gen_line_add(&g, 1, "Stream #7(Compute)", 1000);
	XLine *mod = gen_line_add(&t, 1, "XLA Modules", 1000);
	XEvent *ev;

	ev = kernel(&g, s7, "fusion_1", "jit_s", -1, US(0), US(4));
	gen_ev_str(&g, ev, "program_id", "21");
	ev = kernel(&g, s7, "fusion_2", "jit_s", -1, US(4), US(2));
	gen_ev_str(&g, ev, "program_id", "21");
	ev = kernel(&g, s7, "fusion_3", NULL, -1, US(10), US(3));
	gen_ev_i64(&g, ev, "hlo_module", 5);
	ev = kernel(&g, s7, "fusion_4", "jit_t", -1, US(20), US(5));
	gen_ev_str(&g, ev, "program_id", "x7");
	ev = kernel(&g, s7, "fusion_5", "jit_t", 7, US(30), US(2));
	gen_ev_str(&g, ev, "correlation_id", "c9");

	ev = gen_ev_add(&t, mod, "jit_u(3)", US(0), US(8));
	gen_ev_i64(&t, ev, "hlo_module", 9);

	gen_space_write(sp, dir, "gpu_odd_stats.xplane.pb");
}

/* One kernel per autotune candidate, at 10, 200 and 300 us. */
static void autotune_plane(XSpace *sp, int64_t id, const char *name, const int64_t dur_us[3])
{
	static const char *const fn[3] = {
		"jit_autotune_fn_0", "jit_autotune_fn_1", "jit_autotune_fn_2",
	};
	static const int64_t start_us[3] = { 10, 200, 300 };
	struct gen_plane g = gen_plane_add(sp, id, name, 1000);
	XLine *s7 = gen_line_add(&g, 1, "Stream #7(Compute)", 1000);
	int i;

	for (i = 0; i < 3; i++)
		kernel(&g, s7, "autotune_kernel", fn[i], 10 + i,
		       US(start_us[i]), US(dur_us[i]));
}

/*
 * Scenario 5: five autotune rounds on /device:GPU:0 (candidate 1 clearly
 * fastest, 0 and 2 tied at a trimmed mean of 100 us); round 0 also has
 * /device:GPU:1 with other times, seen only with --all-devices.
 */
static void synth_autotune(const char *dir)
{
	static const int64_t gpu0_us[5][3] = {
		{ 102, 50, 102 },
		{ 100, 52, 99 },
		{ 98, 49, 105 },
		{ 110, 51, 96 },
		{ 95, 60, 99 },
	};
	static const int64_t gpu1_us[3] = { 100, 30, 80 };
	char sub[4096], name[64];
	XSpace *sp;
	int r;

	if (snprintf(sub, sizeof(sub), "%s/autotune", dir) >= (int)sizeof(sub))
		die("output path too long");
	gen_make_dir(sub);
	for (r = 0; r < 5; r++) {
		sp = gen_space_new(NULL);
		autotune_plane(sp, 1, "/device:GPU:0", gpu0_us[r]);
		if (r == 0)
			autotune_plane(sp, 2, "/device:GPU:1", gpu1_us);
		snprintf(name, sizeof(name), "autotune/round_%d.xplane.pb", r);
		gen_space_write(sp, dir, name);
	}
}

/*
 * Scenario 5a: one autotune candidate compiled into two programs.  On a TPU
 * XLA Modules line (one event, one execution), five rounds 100 us apart,
 * each: jit_autotune_fn_0 program 7 at +0, program 8 at +30, and
 * jit_autotune_fn_1 program 9 at +60 (durations in us below).
 */
static void synth_autotune_programs(const char *dir)
{
	static const int64_t dur_us[5][3] = {
		{ 12, 42, 23 }, { 10, 44, 21 }, { 13, 40, 24 }, { 30, 41, 20 }, { 11, 43, 22 },
	};
	static const char *const name[3] = {
		"jit_autotune_fn_0(7)", "jit_autotune_fn_0(8)", "jit_autotune_fn_1(9)",
	};
	static const int64_t pid[3] = { 7, 8, 9 };
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane t = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	XLine *mod = gen_line_add(&t, 1, "XLA Modules", 1000);
	int r, i;

	for (r = 0; r < 5; r++)
		for (i = 0; i < 3; i++)
			gen_ev_i64(&t, gen_ev_add(&t, mod, name[i], US(100 * r + 30 * i), US(dur_us[r][i])),
			       "program_id", pid[i]);
	gen_space_write(sp, dir, "autotune_programs.xplane.pb");
}

/*
 * Scenario 5b: sets of runs to compare (diff, the gate, history). Three
 * sides of five rounds each on a TPU XLA Modules line (one event, one
 * execution): per round 10 executions of each of jit_autotune_fn_0..2
 * (programs 30..32) at nominal 100, 50 and 200 us, each execution's time
 * scaled by a noise factor in [0.97, 1.03] from a fixed generator. "base"
 * and "same" are the same kind of runs (other noise); "slow" is "same"
 * with candidate 1 10% slower.
 */
static void synth_diff(const char *dir)
{
	static const char *const side[3] = { "base", "same", "slow" };
	static const char *const name[3] = {
		"jit_autotune_fn_0(30)", "jit_autotune_fn_1(31)", "jit_autotune_fn_2(32)",
	};
	static const int64_t nominal_ns[3] = { 100000, 50000, 200000 };
	uint64_t rng;
	char sub[4096], fname[96];
	int s, r, i, k;

	if (snprintf(sub, sizeof(sub), "%s/diff", dir) >= (int)sizeof(sub))
		die("output path too long");
	gen_make_dir(sub);
	for (s = 0; s < 3; s++) {
		if (snprintf(sub, sizeof(sub), "%s/diff/%s", dir, side[s]) >= (int)sizeof(sub))
			die("output path too long");
		gen_make_dir(sub);
		rng = s ? 777 : 12345;	/* "slow" repeats "same"'s noise */
		for (r = 0; r < 5; r++) {
			XSpace *sp = gen_space_new(NULL);
			struct gen_plane t = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
			XLine *mod = gen_line_add(&t, 1, "XLA Modules", 1000);
			int64_t at = 0;

			for (k = 0; k < 10; k++)
				for (i = 0; i < 3; i++) {
					/* noise in [-30, 30] thousandths, a 64-bit LCG's high bits */
					int64_t noise, dur;

					rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
					noise = (int64_t)(rng >> 33) % 61 - 30;
					dur = nominal_ns[i] * (1000 + noise) / 1000;
					if (s == 2 && i == 1)
						dur = dur * 11 / 10;
					gen_ev_i64(&t, gen_ev_add(&t, mod, name[i], NS(at), NS(dur)), "program_id", 30 + i);
					at += dur + 5000;
				}
			snprintf(fname, sizeof(fname), "diff/%s/round_%d.xplane.pb", side[s], r);
			gen_space_write(sp, dir, fname);
		}
	}
}

/* One session file: host's TPU:0 XLA Modules line with one execution of jit_step(5) per duration (us), 10 us apart. */
static void session_file(const char *dir, const char *name, const char *host, const int64_t *dur_us, int n)
{
	XSpace *sp = gen_space_new(host);
	struct gen_plane t = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	XLine *mod = gen_line_add(&t, 1, "XLA Modules", 1000);
	int64_t at = 0;
	int i;

	for (i = 0; i < n; i++) {
		gen_ev_i64(&t, gen_ev_add(&t, mod, "jit_step(5)", US(at), US(dur_us[i])), "program_id", 5);
		at += dur_us[i] + 10;
	}
	gen_space_write(sp, dir, name);
}

/*
 * Scenario 5c: runs of several hosts (XProf's session directories,
 * sessions/SIDE/run_R/<host>.xplane.pb, each file named after the hostname
 * its trace carries) and directories that are not sessions. One execution
 * of jit_step(5) per file, in us:
 *   base/run_R:  host-a 100 + R, host-b 110 + R (R = 0..3): run means 105..108
 *   cur/run_R:   host-a 120 + R, host-b 130 + R: run means 125..128
 *   rounds/round_R: host-a alone, 100 + R (one host's rounds: four runs)
 *   mixed/: host-a.xplane.pb 100, host-b.xplane.pb 102, round.xplane.pb
 *           (host-a) 104 (some named after their hosts, one not: ambiguous)
 *   partial/run_0: host-a 100, host-b 102; run_1: host-a 104 (a run missing a host)
 */
static void synth_sessions(const char *dir)
{
	static const char *const sub[] = {
		"sessions", "sessions/base", "sessions/cur", "sessions/rounds", "sessions/mixed",
		"sessions/partial", "sessions/partial/run_0", "sessions/partial/run_1",
	};
	char path[4096], name[96];
	size_t i;
	int r, s;

	for (i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, sub[i]) >= (int)sizeof(path))
			die("output path too long");
		gen_make_dir(path);
	}
	for (s = 0; s < 2; s++)
		for (r = 0; r < 4; r++) {
			int64_t a = (s ? 120 : 100) + r, b = a + 10;

			snprintf(path, sizeof(path), "%s/sessions/%s/run_%d", dir, s ? "cur" : "base", r);
			gen_make_dir(path);
			snprintf(name, sizeof(name), "sessions/%s/run_%d/host-a.xplane.pb", s ? "cur" : "base", r);
			session_file(dir, name, "host-a", &a, 1);
			snprintf(name, sizeof(name), "sessions/%s/run_%d/host-b.xplane.pb", s ? "cur" : "base", r);
			session_file(dir, name, "host-b", &b, 1);
		}
	for (r = 0; r < 4; r++) {
		int64_t d = 100 + r;

		snprintf(name, sizeof(name), "sessions/rounds/round_%d.xplane.pb", r);
		session_file(dir, name, "host-a", &d, 1);
	}
	session_file(dir, "sessions/mixed/host-a.xplane.pb", "host-a", (const int64_t[]){100}, 1);
	session_file(dir, "sessions/mixed/round.xplane.pb", "host-a", (const int64_t[]){104}, 1);
	session_file(dir, "sessions/mixed/host-b.xplane.pb", "host-b", (const int64_t[]){102}, 1);
	session_file(dir, "sessions/partial/run_0/host-a.xplane.pb", "host-a", (const int64_t[]){100}, 1);
	session_file(dir, "sessions/partial/run_0/host-b.xplane.pb", "host-b", (const int64_t[]){102}, 1);
	session_file(dir, "sessions/partial/run_1/host-a.xplane.pb", "host-a", (const int64_t[]){104}, 1);
}

/*
 * Scenario 5e: a pod (sessions/pod/run_R/<host>.xplane.pb, R = 0, 1): runs
 * of three hosts of two TPUs each, a slowed host among them. On every
 * device jit_step(5) three times, 1000 us apart, both planes of a host on
 * one clock (line at 1000 ns); durations (us), the same in every execution
 * and run:
 *   host-a: TPU:0 100, TPU:1 100
 *   host-b: TPU:0 100, TPU:1 101
 *   host-c: TPU:0 110, TPU:1 112 (the slowed host)
 */
static void synth_pod(const char *dir)
{
	static const char *const host[3] = { "host-a", "host-b", "host-c" };
	static const int64_t dur_us[3][2] = { { 100, 100 }, { 100, 101 }, { 110, 112 } };
	char path[4096], name[96];
	int r, h, d, k;

	snprintf(path, sizeof(path), "%s/sessions/pod", dir);
	gen_make_dir(path);
	for (r = 0; r < 2; r++) {
		snprintf(path, sizeof(path), "%s/sessions/pod/run_%d", dir, r);
		gen_make_dir(path);
		for (h = 0; h < 3; h++) {
			XSpace *sp = gen_space_new(host[h]);

			for (d = 0; d < 2; d++) {
				struct gen_plane t = gen_plane_add(sp, d + 1, d ? "/device:TPU:1" : "/device:TPU:0", 1000);
				XLine *mod = gen_line_add(&t, 1, "XLA Modules", 1000);

				for (k = 0; k < 3; k++)
					gen_ev_i64(&t, gen_ev_add(&t, mod, "jit_step(5)", US(1000 * k), US(dur_us[h][d])),
						   "program_id", 5);
			}
			snprintf(name, sizeof(name), "sessions/pod/run_%d/%s.xplane.pb", r, host[h]);
			gen_space_write(sp, dir, name);
		}
	}
}

/*
 * Scenario 5d: stragglers (overview --stragglers). One host ("host-s"),
 * three TPU planes, an "XLA Modules" line each; jit_step(6) three times per
 * device, the k-th at 100 k us from its plane's clock:
 *   TPU:0 10 us long; TPU:1 10 us, its plane's clock 1 us later (line at
 *   2000 ns, the others at 1000 ns); TPU:2 14 us.
 * Each group ends at 10, 11 and 14 us past its start: TPU:2 last every time,
 * 4 us after the first (TPU:0), 4 us slower than the shortest; TPU:1 1 us
 * late, waits 3 us. jit_other(7) runs twice on TPU:0 and once on TPU:1
 * (at 300 and 320 us): unequal, left out.
 */
static void synth_stragglers(const char *dir)
{
	static const int64_t line_ns[3] = { 1000, 2000, 1000 };
	static const int64_t dur_us[3] = { 10, 10, 14 };
	static const char *const plane[3] = { "/device:TPU:0", "/device:TPU:1", "/device:TPU:2" };
	XSpace *sp = gen_space_new("host-s");
	int d, k;

	for (d = 0; d < 3; d++) {
		struct gen_plane t = gen_plane_add(sp, d + 1, plane[d], line_ns[d]);
		XLine *mod = gen_line_add(&t, 1, "XLA Modules", line_ns[d]);

		for (k = 0; k < 3; k++)
			gen_ev_i64(&t, gen_ev_add(&t, mod, "jit_step(6)", US(100 * k), US(dur_us[d])), "program_id", 6);
		for (k = 0; k < (d == 0 ? 2 : d == 1 ? 1 : 0); k++)
			gen_ev_i64(&t, gen_ev_add(&t, mod, "jit_other(7)", US(300 + 20 * k), US(5)), "program_id", 7);
	}
	gen_space_write(sp, dir, "stragglers.xplane.pb");
}

/* Stream #1 of the compat plane: events deliberately out of start order. */
static void compat_stream1(struct gen_plane *g, XLine *ln)
{
	XEvent *ev;

	kernel(g, ln, "k_a2", "jit_a", 1, US(40), US(8));	/* replaces k_a1 */
	kernel(g, ln, "k_short", "jit_short", 2, US(1), NS(999));	/* < 1 us: dropped */
	ev = kernel(g, ln, "k_b_scoped", "jit_b", 4, US(20), US(3));
	gen_ev_i64(g, ev, "scope_range_id", 7);
	kernel(g, ln, "k_tie1", "jit_tie", 5, US(70), US(2));
	kernel(g, ln, "volta_sgemm_128x64", NULL, -1, US(80), US(5));	/* not jit_ */
}

/* Stream #2 of the compat plane. */
static void compat_stream2(struct gen_plane *g, XLine *ln)
{
	XEvent *ev;

	kernel(g, ln, "k_a1", "jit_a", 1, US(10), US(5));
	kernel(g, ln, "k_a3", "jit_a", 1, US(60), NS(500));	/* dropped, no replace */
	kernel(g, ln, "k_b", "jit_b", 4, US(25), US(2));
	kernel(g, ln, "k_c", "jit_c", -1, US(30), US(6));	/* P = None */
	ev = kernel(g, ln, "k_d", "jit_d", -1, US(50), US(4));
	gen_ev_i64(g, ev, "run_id", 9);				/* P from run_id */
	gen_ev_add(g, ln, "jit_meta_only", US(55), US(2));		/* name from metadata */
	kernel(g, ln, "k_tie2", "jit_tie", 5, US(70), US(3));	/* same start: wins */
	kernel(g, ln, "k_edge", "jit_edge", 3, US(90), US(1));	/* exactly 1 us: kept */
	kernel(g, ln, "k_at", "jit_autotune_fn_3", 12, US(95), US(7));
}

/*
 * Scenario 6: compat=ejkernel keys.  A host plane comes first (no "gpu" in
 * its name), then /device:GPU:0 (the one used) and /device:GPU:1 (ignored).
 */
static void synth_compat(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane h = gen_plane_add(sp, 100, "/host:CPU", 1000);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 1000);
	struct gen_plane g1;
	XLine *s1, *s2;

	gen_ev_add(&h, gen_line_add(&h, 1, "python", 1000), "jit_a", US(1), US(50));
	s1 = gen_line_add(&g, 1, "Stream #1(Compute)", 1000);
	s2 = gen_line_add(&g, 2, "Stream #2(Compute)", 1000);
	compat_stream1(&g, s1);
	compat_stream2(&g, s2);

	g1 = gen_plane_add(sp, 2, "/device:GPU:1", 1000);
	kernel(&g1, gen_line_add(&g1, 1, "Stream #1(Compute)", 1000),
	       "k_a", "jit_a", 1, US(100), US(100));

	gen_space_write(sp, dir, "compat.xplane.pb");
}

/*
 * Scenario 11: stray ends (xp_stray.h), as TPU traces with kernel-profiling
 * counters carry them: a duration that holds an end time (82 ms) instead of
 * a length. All lines at 1000 ns (the base), times in us:
 * TPU:0  XLA Modules: jit_step(77) at 20 i, i = 0..10; i = 5 [100, 100 + 82 ms]
 *        is a stray end, the others last 8, 9, 10, 11, 12, 8, 9, 10, 11, 12.
 *        XLA Ops: fusion.a [s+1, s+3] and fusion.b [s+4, s+7] at each s = 20 i.
 *        _counters_: [50, 51], [150, 151] and two stray ends from 30 and 130.
 * TPU:1  XLA Modules: jit_late(78) [20 i, 20 i + 10], i = 0..9, then one more
 *        [50000, 50010]: late, not malformed (it starts after the window).
 * TPU:2  XLA Modules: jit_tiny(79) [20 i, 20 i + 10], i = 0..3, and [80, 80 + 82 ms]:
 *        5 events, too few to judge.
 */
static void synth_tpu_stray_end(const char *dir)
{
	static const int dur_us[11] = {8, 9, 10, 11, 12, 0, 8, 9, 10, 11, 12};
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane t0 = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	struct gen_plane t1 = gen_plane_add(sp, 2, "/device:TPU:1", 1000);
	struct gen_plane t2 = gen_plane_add(sp, 3, "/device:TPU:2", 1000);
	XLine *mod = gen_line_add(&t0, 1, "XLA Modules", 1000);
	XLine *ops = gen_line_add(&t0, 2, "XLA Ops", 1000);
	XLine *cnt = gen_line_add(&t0, 3, "_counters_", 1000);
	int i;

	for (i = 0; i <= 10; i++) {
		gen_ev_add(&t0, mod, "jit_step(77)", US(20 * i), i == 5 ? US(82000) : US(dur_us[i]));
		gen_ev_add(&t0, ops, "fusion.a", US(20 * i + 1), US(2));
		gen_ev_add(&t0, ops, "fusion.b", US(20 * i + 4), US(3));
	}
	gen_ev_add(&t0, cnt, "counter_sample", US(30), US(82000));
	gen_ev_add(&t0, cnt, "counter_sample", US(50), US(1));
	gen_ev_add(&t0, cnt, "counter_sample", US(130), US(82000));
	gen_ev_add(&t0, cnt, "counter_sample", US(150), US(1));

	mod = gen_line_add(&t1, 1, "XLA Modules", 1000);
	for (i = 0; i < 10; i++)
		gen_ev_add(&t1, mod, "jit_late(78)", US(20 * i), US(10));
	gen_ev_add(&t1, mod, "jit_late(78)", US(50000), US(10));

	mod = gen_line_add(&t2, 1, "XLA Modules", 1000);
	for (i = 0; i < 4; i++)
		gen_ev_add(&t2, mod, "jit_tiny(79)", US(20 * i), US(10));
	gen_ev_add(&t2, mod, "jit_tiny(79)", US(80), US(82000));

	gen_space_write(sp, dir, "tpu_stray_end.xplane.pb");
}

/* A host launch NAME (a kernel launch or a runtime copy) with correlation id CORR. */
static void launch_named(struct gen_plane *h, XLine *ln, const char *name, int64_t start_ps,
			 uint64_t corr)
{
	XEvent *ev = gen_ev_add(h, ln, name, start_ps, US(1));

	gen_ev_u64(h, ev, "correlation_id", corr);
}

/* A device event of jit_conv (program 9) with correlation id CORR. */
static void conv_kernel(struct gen_plane *g, XLine *ln, const char *name, int64_t start_us,
			int64_t end_us, uint64_t corr)
{
	XEvent *ev = kernel(g, ln, name, "jit_conv", 9, US(start_us), US(end_us - start_us));

	gen_ev_u64(g, ev, "correlation_id", corr);
}

/*
 * Scenario 12: the older XLA GPU host layout (no ExecuteThunks): each call
 * runs inside a "<module>:XLA GPU module" event on its device's executor
 * thread, which also holds Thunks::Prepare/Initialize and the launches
 * (hipModuleLaunchKernel, hipMemcpyDtoDAsync), all on that one line. Three
 * devices run jit_conv (program 9) at once, each from its own thread:
 *   GPU:0, py_xla_execute/1: 3 calls, executors [100,130] [140,170] [180,210] us;
 *   GPU:1, py_xla_execute/2: 1 call, executor [101,209], whose 3 launches
 *     (107, 152, 197) also lie in GPU:0's executors: pairing lines by vote
 *     ties (3 and 3), so only "the launch's own thread wins" keeps it 1 call;
 *   GPU:2, py_xla_execute/3: 1 call in capture's NVTX form
 *     "XlaModule:#hlo_module=jit_conv,program_id=9#" [300,320], no module_name.
 * Device events (us), per call busy / span (tests/synth/EXPECTED.md 12):
 *   GPU:0: A[0,2] C[3,4] B[5,8] | A[12,14] C[15,16] B[17,21] | A[24,27] C[28,29] B[30,32]
 *          -> 6/8, 7/9, 6/8
 *   GPU:1: A[2,5] C[6,7] B[8,12] -> 8/10;   GPU:2: A[40,42] B[43,45] -> 4/5
 * gpu_old_layout_nohost.xplane.pb has the same device planes and no host
 * plane: the runs rule sees GPU:0's nine events as one run, whose names
 * repeat with period 3 and whose call boundaries leave gaps (4, 3 us)
 * longer than any inside a call (1 us), so it splits into the same 3 calls.
 */
static void gpu_old_layout(const char *dir, int with_host)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g0 = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	struct gen_plane g1 = gen_plane_add(sp, 2, "/device:GPU:1", 0);
	struct gen_plane g2 = gen_plane_add(sp, 3, "/device:GPU:2", 0);
	XLine *s0 = gen_line_add(&g0, 1, "Stream #1(Kernel)", 0);
	XLine *s1 = gen_line_add(&g1, 1, "Stream #2(Kernel)", 0);
	XLine *s2 = gen_line_add(&g2, 1, "Stream #3(Kernel)", 0);
	static const int64_t x0[3][3][2] = {
		{ { 0, 2 }, { 3, 4 }, { 5, 8 } },
		{ { 12, 14 }, { 15, 16 }, { 17, 21 } },
		{ { 24, 27 }, { 28, 29 }, { 30, 32 } },
	};
	static const char *const kname[3] = { "conv_a", "MemcpyDtoD", "conv_b" };
	static const char *const lname[3] = { "hipModuleLaunchKernel", "hipMemcpyDtoDAsync",
					      "hipModuleLaunchKernel" };
	int c, k;

	for (c = 0; c < 3; c++)
		for (k = 0; k < 3; k++)
			conv_kernel(&g0, s0, kname[k], x0[c][k][0], x0[c][k][1], (uint64_t)(1 + 3 * c + k));
	conv_kernel(&g1, s1, kname[0], 2, 5, 11);
	conv_kernel(&g1, s1, kname[1], 6, 7, 12);
	conv_kernel(&g1, s1, kname[2], 8, 12, 13);
	conv_kernel(&g2, s2, kname[0], 40, 42, 21);
	conv_kernel(&g2, s2, kname[2], 43, 45, 22);
	if (with_host) {
		struct gen_plane h = gen_plane_add(sp, 4, "/host:CPU", 0);
		XLine *e0 = gen_line_add(&h, 1, "py_xla_execute/1", 0);
		XLine *e1 = gen_line_add(&h, 2, "py_xla_execute/2", 0);
		XLine *e2 = gen_line_add(&h, 3, "py_xla_execute/3", 0);

		gen_ev_add(&h, gen_line_add(&h, 4, "python", 0), "PjitFunction(conv)", US(90), US(130));
		for (c = 0; c < 3; c++) {
			int64_t s = 100 + 40 * c;

			gen_ev_add(&h, e0, "jit_conv:XLA GPU module", US(s), US(30));
			gen_ev_add(&h, e0, "Thunks::Prepare", US(s + 1), US(1));
			gen_ev_add(&h, e0, "Thunks::Initialize", US(s + 2), US(1));
			for (k = 0; k < 3; k++)
				launch_named(&h, e0, lname[k], US(s + 5 + 5 * k), (uint64_t)(1 + 3 * c + k));
		}
		gen_ev_add(&h, e1, "jit_conv:XLA GPU module", US(101), US(108));
		gen_ev_add(&h, e1, "Thunks::Prepare", US(102), US(1));
		gen_ev_add(&h, e1, "Thunks::Initialize", US(104), US(1));
		launch_named(&h, e1, lname[0], US(107), 11);
		launch_named(&h, e1, lname[1], US(152), 12);
		launch_named(&h, e1, lname[2], US(197), 13);
		gen_ev_add(&h, e2, "XlaModule:#hlo_module=jit_conv,program_id=9#", US(300), US(20));
		launch_named(&h, e2, lname[0], US(305), 21);
		launch_named(&h, e2, lname[2], US(310), 22);
	}
	gen_space_write(sp, dir, with_host ? "gpu_old_layout.xplane.pb" : "gpu_old_layout_nohost.xplane.pb");
}

/*
 * Scenario 13: repeated correlation ids, as in a file made by repeating a
 * trace or merging processes. Three copies of one call of jit_r (program 4),
 * 100 us apart on host and device alike, keep ids 1 and 2:
 *   copy c (c = 0, 1, 2; d = 100c us): ExecuteThunks [10+d, 20+d] on
 *   "python", launches at 11+d (id 1) and 13+d (id 2) on "Host Threads/7",
 *   kernels K1 [12+d, 14+d] (id 1) and K2 [15+d, 16+d] (id 2).
 * The nearest launch of each id resolves it: 3 executions of busy 3 us,
 * span 4 us. A fourth kernel K3 [300, 301] us has id 3, whose two launches
 * (250 and 350 us, each inside an ExecuteThunks of jit_r) are equally near:
 * it stays ambiguous and forms an execution of its own by the runs rule.
 */
/*
 * ids scales every correlation id: 1 writes gpu_repeated_ids, 10^12 the same
 * trace with ids far apart (gpu_repeated_ids_sparse: host linkage searches
 * them where it indexes dense ones; the answers are the same).
 */
static void gpu_repeated_ids(const char *dir, uint64_t ids, const char *file)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	struct gen_plane h = gen_plane_add(sp, 2, "/host:CPU", 0);
	XLine *s1 = gen_line_add(&g, 1, "Stream #1(Kernel)", 0);
	XLine *py = gen_line_add(&h, 1, "python", 0);
	XLine *th = gen_line_add(&h, 2, "Host Threads/7", 0);
	XEvent *ev;
	int c;

	for (c = 0; c < 3; c++) {
		int64_t d = 100 * c;

		ev = kernel(&g, s1, "r_k1", "jit_r", 4, US(12 + d), US(2));
		gen_ev_u64(&g, ev, "correlation_id", 1 * ids);
		ev = kernel(&g, s1, "r_k2", "jit_r", 4, US(15 + d), US(1));
		gen_ev_u64(&g, ev, "correlation_id", 2 * ids);
		thunks(&h, py, US(10 + d), US(10), "jit_r");
		launch(&h, th, US(11 + d), 1 * ids);
		launch(&h, th, US(13 + d), 2 * ids);
	}
	ev = kernel(&g, s1, "r_k3", "jit_r", 4, US(300), US(1));
	gen_ev_u64(&g, ev, "correlation_id", 3 * ids);
	thunks(&h, py, US(245), US(10), "jit_r");
	thunks(&h, py, US(345), US(10), "jit_r");
	launch(&h, th, US(250), 3 * ids);
	launch(&h, th, US(350), 3 * ids);
	gen_space_write(sp, dir, file);
}

/*
 * Scenario 14: host-linkage edge cases (EXPECTED.md 14), one file each.
 * gpu_many_copies: 300 copies, 100 us apart, of one call of jit_c (program
 *   5) that all keep correlation id 1: ExecuteThunks [10+d, 20+d] on
 *   "python", its launch at 11+d on "Host Threads/7", kernel [12+d, 14+d].
 *   No id is unique, so nothing tells the device's threads or its lag: the
 *   nearest launch decides, 300 executions of 2 us.
 * gpu_merged_processes: two devices whose processes both used id 5 at the
 *   same time. Executors jit_p [10, 50] on py_xla_execute/0 and /1; launches
 *   on Host Threads/100 (GPU:0: id 1 at 11, id 5 at 20) and Host Threads/200
 *   (GPU:1: id 2 at 11, id 5 at 20); each kernel starts 1 us after its
 *   launch. Time cannot tell the id-5 launches apart; the thread each
 *   device's unique id was launched from can: GPU:0 {[12,14], [21,24]} busy
 *   5 span 12, GPU:1 {[12,13], [21,23]} busy 3 span 11.
 * gpu_both_forms: JAX 0.8's nesting, GpuExecutable::ExecuteThunks around
 *   "jit_b:XLA GPU module": [10,40] around [12,38], [50,80] around [52,78],
 *   on py_xla_execute/1; launches on Host Threads/9 at 11 (between the two
 *   starts), 20, 51, 60 (ids 1-4); kernels [0,2] [3,5] | [10,11] [12,16]:
 *   2 executions, busy 4 span 5 and busy 5 span 6.
 */
static void synth_gpu_link_edges(const char *dir)
{
	XSpace *sp;
	struct gen_plane g, g1, h;
	XLine *s1, *py, *th, *x0, *x1, *t0, *t1;
	XEvent *ev;
	int c;

	sp = gen_space_new(NULL);
	g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	h = gen_plane_add(sp, 2, "/host:CPU", 0);
	s1 = gen_line_add(&g, 1, "Stream #1(Kernel)", 0);
	py = gen_line_add(&h, 1, "python", 0);
	th = gen_line_add(&h, 2, "Host Threads/7", 0);
	for (c = 0; c < 300; c++) {
		int64_t d = 100 * (int64_t)c;

		ev = kernel(&g, s1, "c_k", "jit_c", 5, US(12 + d), US(2));
		gen_ev_u64(&g, ev, "correlation_id", 1);
		thunks(&h, py, US(10 + d), US(10), "jit_c");
		launch(&h, th, US(11 + d), 1);
	}
	gen_space_write(sp, dir, "gpu_many_copies.xplane.pb");

	sp = gen_space_new(NULL);
	g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	g1 = gen_plane_add(sp, 2, "/device:GPU:1", 0);
	h = gen_plane_add(sp, 3, "/host:CPU", 0);
	s1 = gen_line_add(&g, 1, "Stream #1(Kernel)", 0);
	x0 = gen_line_add(&h, 1, "py_xla_execute/0", 0);
	x1 = gen_line_add(&h, 2, "py_xla_execute/1", 0);
	t0 = gen_line_add(&h, 3, "Host Threads/100", 0);
	t1 = gen_line_add(&h, 4, "Host Threads/200", 0);
	ev = kernel(&g, s1, "p_k1", "jit_p", 6, US(12), US(2));
	gen_ev_u64(&g, ev, "correlation_id", 1);
	ev = kernel(&g, s1, "p_k5", "jit_p", 6, US(21), US(3));
	gen_ev_u64(&g, ev, "correlation_id", 5);
	s1 = gen_line_add(&g1, 1, "Stream #2(Kernel)", 0);
	ev = kernel(&g1, s1, "p_k2", "jit_p", 6, US(12), US(1));
	gen_ev_u64(&g1, ev, "correlation_id", 2);
	ev = kernel(&g1, s1, "p_k5", "jit_p", 6, US(21), US(2));
	gen_ev_u64(&g1, ev, "correlation_id", 5);
	thunks(&h, x0, US(10), US(40), "jit_p");
	thunks(&h, x1, US(10), US(40), "jit_p");
	launch(&h, t0, US(11), 1);
	launch(&h, t0, US(20), 5);
	launch(&h, t1, US(11), 2);
	launch(&h, t1, US(20), 5);
	gen_space_write(sp, dir, "gpu_merged_processes.xplane.pb");

	sp = gen_space_new(NULL);
	g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	h = gen_plane_add(sp, 2, "/host:CPU", 0);
	s1 = gen_line_add(&g, 1, "Stream #1(Kernel)", 0);
	x1 = gen_line_add(&h, 1, "py_xla_execute/1", 0);
	th = gen_line_add(&h, 2, "Host Threads/9", 0);
	{
		static const int64_t k[4][3] = { { 0, 2, 11 }, { 3, 5, 20 }, { 10, 11, 51 }, { 12, 16, 60 } };

		for (c = 0; c < 4; c++) {
			ev = kernel(&g, s1, "b_k", "jit_b", 7, US(k[c][0]), US(k[c][1] - k[c][0]));
			gen_ev_u64(&g, ev, "correlation_id", (uint64_t)(c + 1));
			launch(&h, th, US(k[c][2]), (uint64_t)(c + 1));
		}
	}
	thunks(&h, x1, US(10), US(30), "jit_b");
	gen_ev_add(&h, x1, "jit_b:XLA GPU module", US(12), US(26));
	thunks(&h, x1, US(50), US(30), "jit_b");
	gen_ev_add(&h, x1, "jit_b:XLA GPU module", US(52), US(26));
	gen_space_write(sp, dir, "gpu_both_forms.xplane.pb");
}

/*
 * Scenario 15: no host plane, and a call whose own kernels repeat: jit_mlp
 * (program 2) runs gemm [0,10] relu [11,13] gemm [16,26] relu [27,29] us,
 * four times 100 us apart. Period 2 would cut inside calls (gaps 3 against
 * 1: it separates, but 3x); period 4 cuts only between calls (71 against 3,
 * 23.7x) and wins: 4 executions, busy 24, span 29.
 */
static void synth_gpu_runs_mlp(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	XLine *s1 = gen_line_add(&g, 1, "Stream #1(Kernel)", 0);
	static const int64_t k[4][2] = { { 0, 10 }, { 11, 13 }, { 16, 26 }, { 27, 29 } };
	int c, i;

	for (c = 0; c < 4; c++)
		for (i = 0; i < 4; i++)
			kernel(&g, s1, i % 2 ? "relu" : "gemm", "jit_mlp", 2, US(100 * c + k[i][0]),
			       US(k[i][1] - k[i][0]));
	gen_space_write(sp, dir, "gpu_runs_mlp.xplane.pb");
}

/*
 * Scenario 18/19 (EXPECTED.md): overview and events. GPU:0 (base 1000 ns):
 * compute [0,10] [32,36] (stream 1) [5,15] (stream 2); collectives
 * all-reduce.1 [20,30] (stream 1), ncclKernel_AllGather [25,40] (stream 2);
 * copies MemcpyH2D [8,18], MemcpyD2H [45,50] (stream 3); Steps [0,20]
 * [20,50]. Host (base 500 ns): launches with correlation ids 1-4 (latency
 * 0.5, 2, 1, 4 us), id 5 twice (ambiguous), none for id 6; step_num 7 on two
 * lines ([1,11], [3,14]) and 8 ([20,26]).
 */
static void synth_overview(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 1000);
	struct gen_plane h = gen_plane_add(sp, 2, "/host:CPU", 500);
	XLine *s1 = gen_line_add(&g, 1, "Stream #1(Compute)", 1000);
	XLine *s2 = gen_line_add(&g, 2, "Stream #2(Compute)", 1000);
	XLine *s3 = gen_line_add(&g, 3, "Stream #3(MemcpyH2D)", 1000);
	XLine *st = gen_line_add(&g, 4, "Steps", 1000);
	XLine *hl = gen_line_add(&h, 1, "launch", 500);
	XLine *hs = gen_line_add(&h, 2, "steps", 500);
	XLine *hs2 = gen_line_add(&h, 3, "steps2", 500);
	static const struct {
		int line;
		const char *name;
		int64_t start_us, dur_us;
		uint64_t corr;
	} k[] = {
		{ 1, "fusion_a", 0, 10, 1 }, { 1, "all-reduce.1", 20, 10, 2 }, { 1, "fusion_c", 32, 4, 6 },
		{ 2, "fusion_b", 5, 10, 3 }, { 2, "ncclKernel_AllGather", 25, 15, 4 },
		{ 3, "MemcpyH2D", 8, 10, 5 }, { 3, "MemcpyD2H", 45, 5, 0 },
	};
	static const int64_t launch_ns[][2] = { { 1, 0 }, { 2, 18500 }, { 3, 4500 }, { 4, 21500 },
						{ 5, 7000 }, { 5, 7500 } };
	XEvent *ev;
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		ev = gen_ev_add(&g, k[i].line == 1 ? s1 : k[i].line == 2 ? s2 : s3, k[i].name, US(k[i].start_us),
			    US(k[i].dur_us));
		if (k[i].corr)
			gen_ev_u64(&g, ev, "correlation_id", k[i].corr);
	}
	gen_ev_add(&g, st, "1", US(0), US(20));
	gen_ev_add(&g, st, "2", US(20), US(30));
	for (i = 0; i < sizeof(launch_ns) / sizeof(launch_ns[0]); i++) {
		ev = gen_ev_add(&h, hl, "cuLaunchKernel", launch_ns[i][1] * 1000, US(1));
		gen_ev_u64(&h, ev, "correlation_id", (uint64_t)launch_ns[i][0]);
	}
	ev = gen_ev_add(&h, hs, "train", US(1), US(10));
	gen_ev_i64(&h, ev, "step_num", 7);
	ev = gen_ev_add(&h, hs2, "train", US(3), US(11));
	gen_ev_i64(&h, ev, "step_num", 7);
	ev = gen_ev_add(&h, hs, "train", US(20), US(6));
	gen_ev_i64(&h, ev, "step_num", 8);
	gen_space_write(sp, dir, "overview.xplane.pb");
}

/* One stream's kernels (start, duration, launch in us; correlation id) and their host launches. */
static void launch_trace(const char *dir, const char *file, const int64_t (*k)[4], size_t n)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	struct gen_plane h = gen_plane_add(sp, 2, "/host:CPU", 0);
	XLine *s = gen_line_add(&g, 1, "Stream #1(Compute)", 0);
	XLine *hl = gen_line_add(&h, 1, "launch", 0);
	XEvent *ev;
	size_t i;

	for (i = 0; i < n; i++) {
		ev = gen_ev_add(&g, s, "fusion", US(k[i][0]), US(k[i][1]));
		gen_ev_u64(&g, ev, "correlation_id", (uint64_t)k[i][3]);
		ev = gen_ev_add(&h, hl, "cuLaunchKernel", US(k[i][2]), US(1));
		gen_ev_u64(&h, ev, "correlation_id", (uint64_t)k[i][3]);
	}
	gen_space_write(sp, dir, file);
}

/*
 * Launch latency split (EXPECTED.md section 16a): one stream, four kernels
 * K1 [10,20], K2 [20,25], K3 [30,35], K4 [41,42] us, launched at 5, 8, 24
 * and 40 us (correlation ids 1-4; both planes start at 0).
 */
static void synth_launch_queue(const char *dir)
{
	static const int64_t k[][4] = {{10, 10, 5, 1}, {20, 5, 8, 2}, {30, 5, 24, 3}, {41, 1, 40, 4}};

	launch_trace(dir, "launch_queue.xplane.pb", k, 4);
}

/*
 * The split on a line written out of order (EXPECTED.md section 16b): K1
 * [10,12] and K2 [10,50] start together, K3 [40,42], K4 [45,55] us,
 * launched at 5, 6, 20 and 24, written K3, K1, K4, K2.
 */
static void synth_launch_queue_unsorted(const char *dir)
{
	static const int64_t k[][4] = {{40, 2, 20, 3}, {10, 2, 5, 1}, {45, 10, 24, 4}, {10, 40, 6, 2}};

	launch_trace(dir, "launch_queue_unsorted.xplane.pb", k, 4);
}

/*
 * kernels (EXPECTED.md section 16): two GPU planes; on GPU:0 two overlapping
 * streams with kernels of two launch configurations, an unparsable and an
 * AMD-style kernel_details, one copy of each kind and a memset, and a
 * "TensorFlow Ops" line repeating two kernels (derived: not counted).
 */
static void kern_ev(struct gen_plane *g, XLine *ln, const char *name, const char *module, const char *op,
		    const char *details, int64_t start_us, int64_t dur_us)
{
	XEvent *ev = gen_ev_add(g, ln, name, US(start_us), US(dur_us));

	if (module)
		gen_ev_str(g, ev, "hlo_module", module);
	if (op)
		gen_ev_str(g, ev, "hlo_op", op);
	if (details)
		gen_ev_str(g, ev, strncmp(name, "Memset", 6) ? strncmp(name, "Memcpy", 6) ? "kernel_details"
			   : "memcpy_details" : "memset_details", details);
}

/*
 * Scenario 20: a stray end on a GPU stream (kernels). GPU:0, one line
 * "Stream #7(Compute)": gemm at 20 i us, i = 0..10, lasting 8, 9, 10, 11,
 * 12, 82,000, 8, 9, 10, 11, 12 us; K5 = [100, 82,100] is the stray end.
 */
static void synth_gpu_stray_end(const char *dir)
{
	static const int dur_us[11] = {8, 9, 10, 11, 12, 82000, 8, 9, 10, 11, 12};
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	XLine *s = gen_line_add(&g, 1, "Stream #7(Compute)", 0);
	int i;

	for (i = 0; i <= 10; i++)
		kern_ev(&g, s, "gemm", "jit_step(7)", "dot.1",
			"regs:32 static_shared:0 dynamic_shared:0 grid:8,1,1 block:128,1,1 occ_pct:50",
			20 * i, dur_us[i]);
	gen_space_write(sp, dir, "gpu_stray_end.xplane.pb");
}

/*
 * Scenario 16c: launch configurations as profilers write them (kernels
 * --by config). GPU:0, "Stream #1(Compute)", kernel k five times (us):
 *   1 us  "regs:16\nstatic_shared:0\ndynamic_shared:0\ngrid:2,1,1\nblock:32,1,1" (newlines)
 *   2 us  "regs=16 static_shared=0 dynamic_shared=0 grid=2,1,1 block=32,1,1" (key=value)
 *   4 us  "grid:4 block:64,2 foo:3" (dimensions missing, a key not known)
 *   8 us  "regs:x grid:1,1,1 block:1,1,1" (a value that does not parse)
 *   16 us "bogus" (nothing to read)
 */
static void synth_gpu_launch_configs(const char *dir)
{
	static const char *const cfg[5] = {
		"regs:16\nstatic_shared:0\ndynamic_shared:0\ngrid:2,1,1\nblock:32,1,1",
		"regs=16 static_shared=0 dynamic_shared=0 grid=2,1,1 block=32,1,1",
		"grid:4 block:64,2 foo:3",
		"regs:x grid:1,1,1 block:1,1,1",
		"bogus",
	};
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	XLine *s1 = gen_line_add(&g, 1, "Stream #1(Compute)", 0);
	int i;

	for (i = 0; i < 5; i++)
		kern_ev(&g, s1, "k", "jit_step(7)", "dot.1", cfg[i], 100 * i, (int64_t)1 << i);
	gen_space_write(sp, dir, "gpu_launch_configs.xplane.pb");
}

/*
 * Scenario 16d: a GPU plane whose lines are not named "Stream #" (kernels
 * reads every line XProf does not derive). GPU:0: line "Compute" with k at
 * 0 (3 us) and 10 (5 us), line "Copies" with a MemcpyH2D at 20 (2 us, 100
 * bytes), and a derived "TensorFlow Ops" line repeating k at 0 (3 us).
 */
static void synth_gpu_other_lines(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	XLine *c = gen_line_add(&g, 1, "Compute", 0);
	XLine *m = gen_line_add(&g, 2, "Copies", 0);
	XLine *tf = gen_line_add(&g, 3, "TensorFlow Ops", 0);

	kern_ev(&g, c, "k", "jit_step(7)", "dot.1", "grid:1,1,1 block:32,1,1", 0, 3);
	kern_ev(&g, c, "k", "jit_step(7)", "dot.1", "grid:1,1,1 block:32,1,1", 10, 5);
	kern_ev(&g, m, "MemcpyH2D", NULL, NULL, "size:100 dest:0 async:1", 20, 2);
	gen_ev_add(&g, tf, "k", US(0), US(3));
	gen_space_write(sp, dir, "gpu_other_lines.xplane.pb");
	/* the same Compute line under an "XLA Modules" line (jit_step(7) over [0,20]): kernels still reads it */
	sp = gen_space_new(NULL);
	g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	tf = gen_line_add(&g, 1, "XLA Modules", 0);
	c = gen_line_add(&g, 2, "Compute", 0);
	gen_ev_i64(&g, gen_ev_add(&g, tf, "jit_step(7)", US(0), US(20)), "program_id", 7);
	kern_ev(&g, c, "k", "jit_step(7)", "dot.1", "grid:1,1,1 block:32,1,1", 0, 3);
	kern_ev(&g, c, "k", "jit_step(7)", "dot.1", "grid:1,1,1 block:32,1,1", 10, 5);
	gen_space_write(sp, dir, "gpu_modules_other_lines.xplane.pb");
	/* only derived lines ("XLA Modules", "XLA Ops"): no kernels, a plane with events all the same */
	sp = gen_space_new(NULL);
	g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	tf = gen_line_add(&g, 1, "XLA Modules", 0);
	c = gen_line_add(&g, 2, "XLA Ops", 0);
	gen_ev_i64(&g, gen_ev_add(&g, tf, "jit_step(7)", US(0), US(20)), "program_id", 7);
	gen_ev_add(&g, c, "dot.1", US(0), US(8));
	gen_space_write(sp, dir, "gpu_derived_only.xplane.pb");
}

static void synth_gpu_kernels(const char *dir)
{
	static const char *const cfg_a =
		"regs:32 static_shared:0 dynamic_shared:1024 grid:8,1,1 block:128,1,1 occ_pct:50";
	static const char *const cfg_b =
		"regs:32 static_shared:0 dynamic_shared:1024 grid:16,1,1 block:128,1,1 occ_pct:50";
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	struct gen_plane g1 = gen_plane_add(sp, 2, "/device:GPU:1", 0);
	XLine *s1 = gen_line_add(&g, 1, "Stream #1(Compute)", 0);
	XLine *s2 = gen_line_add(&g, 2, "Stream #2(Compute)", 0);
	XLine *tf = gen_line_add(&g, 3, "TensorFlow Ops", 0);
	XLine *t1 = gen_line_add(&g1, 1, "Stream #5(Compute)", 0);

	kern_ev(&g, s1, "gemm", "jit_step(7)", "dot.1", cfg_a, 0, 10);
	kern_ev(&g, s1, "gemm", "jit_step(7)", "dot.1", cfg_a, 20, 6);
	kern_ev(&g, s1, "gemm", "jit_step(7)", "dot.1", cfg_b, 30, 4);
	kern_ev(&g, s1, "relu", "jit_step(7)", "relu.2", "grid=8 bogus", 40, 2);
	kern_ev(&g, s1, "MemcpyH2D", NULL, NULL, "size:4000 dest:0 async:1", 50, 4);
	kern_ev(&g, s1, "Memset", NULL, NULL, "kind:device num_bytes:512 async:0", 60, 1);
	kern_ev(&g, s1, "relu", NULL, NULL, "grid:4,1,1 block:64,1,1 private_mem:0 group_mem:0 occ_pct:0", 70, 0);
	kern_ev(&g, s2, "gemm", "jit_step(7)", "dot.1", cfg_a, 5, 8);
	kern_ev(&g, s2, "MemcpyD2H", NULL, NULL, "size:2000 dest:0 async:1", 14, 2);
	kern_ev(&g, s2, "MemcpyD2D", NULL, NULL, "size:1000 dest:0 async:1", 17, 1);
	kern_ev(&g, s2, "MemcpyP2P", NULL, NULL, "dest:1 async:1", 19, 2);
	kern_ev(&g, s2, "Memcpy", NULL, NULL, "size:100 dest:0 async:1", 22, 1);
	gen_ev_add(&g, tf, "gemm", US(0), US(10));
	gen_ev_add(&g, tf, "gemm", US(20), US(6));
	kern_ev(&g1, t1, "gemm", NULL, NULL, cfg_a, 0, 3);
	gen_space_write(sp, dir, "gpu_kernels.xplane.pb");
}

/* An XLA op's metadata: display name, category, flops and bytes (< 0: no such stat). */
static void op_md(struct gen_plane *p, const char *name, const char *display, const char *cat,
		  int64_t flops, int64_t bytes, int flops_set)
{
	XEventMetadata *m = gen_event_md(p, name);

	m->display_name = xstrdup(display);
	gen_md_str(p, name, "hlo_category", cat);
	if (flops_set)
		gen_md_i64(p, name, "flops", flops);
	if (bytes >= 0)
		gen_md_i64(p, name, "bytes_accessed", bytes);
}

/*
 * GPU op calls (EXPECTED.md section 14c): kernels grouped by their
 * scope_range_id, one per execution of an op's thunk: attn's 6 kernels in
 * 2 calls, mm's 3 and 2 kernels on two devices in 5 (an id repeated on
 * another device is another call), odd's 2 kernels, one without an id:
 * calls unknown.
 */
static void synth_ops_gpu_calls(const char *dir)
{
	static const struct {
		int device;
		const char *op;
		int64_t scope;	/* -1: none */
	} k[] = {
		{0, "attn", 10}, {0, "attn", 10}, {0, "attn", 10}, {0, "attn", 11}, {0, "attn", 11}, {0, "attn", 11},
		{0, "mm", 20}, {0, "mm", 21}, {0, "mm", 22}, {1, "mm", 20}, {1, "mm", 40},
		{0, "odd", 30}, {0, "odd", -1},
	};
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g[2] = {gen_plane_add(sp, 1, "/device:GPU:0", 1000), gen_plane_add(sp, 2, "/device:GPU:1", 1000)};
	XLine *st[2] = {gen_line_add(&g[0], 1, "Stream #1(Kernel)", 1000), gen_line_add(&g[1], 1, "Stream #1(Kernel)", 1000)};
	XEvent *ev;
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct gen_plane *p = &g[k[i].device];

		ev = kernel(p, st[k[i].device], "kern", "jit_f", 3, US(10 * (int64_t)i), US(2));
		gen_ev_str(p, ev, "hlo_op", k[i].op);
		if (k[i].scope >= 0)
			gen_ev_i64(p, ev, "scope_range_id", k[i].scope);
	}
	gen_space_write(sp, dir, "ops_gpu_calls.xplane.pb");
}

/*
 * GPU ops costed from their HLO (EXPECTED.md section 17d): jit_mm(5)'s HLO
 * on the metadata plane (a cuBLAS GEMM with its workspace, a loop fusion
 * of an add, an add, a custom call the cost model does not know), kernels
 * with scope_range_ids on a GPU plane whose stats derive its peaks (2 SMs
 * of compute capability 9.0 at 1 GHz: 8.192 TFLOP/s; 1000 GB/s).
 */
static void synth_ops_gpu_cost(const char *dir)
{
	static const int64_t d_a[] = {64, 32}, d_b[] = {32, 16}, d_c[] = {64, 16}, d_ws[] = {1024}, d_v[] = {256};
	static const int64_t gemm_ops[] = {1, 2}, add_ops[] = {4, 5}, fadd_ops[] = {10, 11}, cc_ops[] = {4};
	static const int64_t calls_fadd[] = {2};
	static const struct {
		const char *op;
		int64_t scope;	/* -1: none */
		int64_t start_us, dur_us;
	} k[] = {
		{"custom-call.1", 1, 0, 1}, {"custom-call.1", 1, 2, 1}, {"custom-call.1", 2, 4, 1},
		{"custom-call.1", 2, 6, 1}, {"fusion.1", 3, 10, 2}, {"fusion.1", 4, 12, 2}, {"fusion.1", 5, 14, 2},
		{"custom-call.2", 6, 20, 1}, {"odd.1", 7, 22, 1}, {"add.3", -1, 24, 1},
	};
	static const char gemm_config[] =
		"{\"gemm_backend_config\":{\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":[\"1\"],"
		"\"rhs_contracting_dimensions\":[\"0\"],\"lhs_batch_dimensions\":[],\"rhs_batch_dimensions\":[]}}}";
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g, md;
	XLine *st;
	XEvent *ev;
	Xla__HloModuleProto *m = gen_hlo_module("jit_mm", "main", 1);
	Xla__HloComputationProto *c;
	Xla__HloInstructionProto *i;
	Xla__ShapeProto *tup = gen_alloc(sizeof(*tup)), **parts = gen_alloc(2 * sizeof(*parts));
	struct gen_bytes hlo;
	size_t n;

	c = gen_hlo_comp(m, "fused_add", 2, 12);
	gen_hlo_instr(c, "p0", "parameter", 10, 11, 1, d_v);
	i = gen_hlo_instr(c, "p1", "parameter", 11, 11, 1, d_v);
	i->parameter_number = 1;
	i = gen_hlo_instr(c, "add.0", "add", 12, 11, 1, d_v);
	gen_hlo_refs(i, 2, fadd_ops, 0, NULL);
	c = gen_hlo_comp(m, "main", 1, 6);
	gen_hlo_instr(c, "a", "parameter", 1, 16, 2, d_a);
	i = gen_hlo_instr(c, "b", "parameter", 2, 16, 2, d_b);
	i->parameter_number = 1;
	i = gen_hlo_instr(c, "custom-call.1", "custom-call", 3, 16, 2, d_c);
	/* its shape the tuple (bf16[64,16], s8[1024]): the result and the workspace */
	xla__shape_proto__init(tup);
	tup->element_type = 13;	/* TUPLE */
	parts[0] = i->shape;
	parts[1] = gen_alloc(sizeof(**parts));
	xla__shape_proto__init(parts[1]);
	parts[1]->element_type = 2;	/* S8 */
	parts[1]->n_dimensions = 1;
	parts[1]->dimensions = gen_alloc(sizeof(int64_t));
	memcpy(parts[1]->dimensions, d_ws, sizeof(d_ws));
	tup->n_tuple_shapes = 2;
	tup->tuple_shapes = parts;
	i->shape = tup;
	i->custom_call_target = xstrdup("__cublas$gemm");
	i->backend_config.data = (uint8_t *)xstrdup(gemm_config);
	i->backend_config.len = strlen(gemm_config);
	gen_hlo_refs(i, 2, gemm_ops, 0, NULL);
	i = gen_hlo_instr(c, "x", "parameter", 4, 11, 1, d_v);
	i->parameter_number = 2;
	i = gen_hlo_instr(c, "y", "parameter", 5, 11, 1, d_v);
	i->parameter_number = 3;
	i = gen_hlo_instr(c, "fusion.1", "fusion", 6, 11, 1, d_v);
	i->fusion_kind = xstrdup("kLoop");
	gen_hlo_refs(i, 2, add_ops, 1, calls_fadd);
	i = gen_hlo_instr(c, "custom-call.2", "custom-call", 7, 11, 1, d_v);
	i->custom_call_target = xstrdup("__my$kernel");
	gen_hlo_refs(i, 1, cc_ops, 0, NULL);
	i = gen_hlo_instr(c, "add.3", "add", 8, 11, 1, d_v);
	gen_hlo_refs(i, 2, add_ops, 0, NULL);
	hlo = gen_hlo_pack(m);
	md = gen_plane_add(sp, 99, "/host:metadata", 0);
	gen_md_bytes(&md, "jit_mm(5)", "Hlo Proto", &hlo);
	free(hlo.p);

	g = gen_plane_add(sp, 1, "/device:GPU:0", 1000);
	gen_plane_i64(&g, "core_count", 2);
	gen_plane_i64(&g, "clock_rate", 1000000);	/* kHz */
	gen_plane_i64(&g, "compute_cap_major", 9);
	gen_plane_i64(&g, "compute_cap_minor", 0);
	gen_plane_i64(&g, "memory_bandwidth", 1000000000000);
	st = gen_line_add(&g, 1, "Stream #1(Kernel)", 1000);
	for (n = 0; n < sizeof(k) / sizeof(k[0]); n++) {	/* the GEMM's kernels named as tensor-core ones */
		ev = kernel(&g, st, n < 4 ? "sm90_xmma_gemm_bf16bf16_bf16f32" : "kern", "jit_mm", 5, US(k[n].start_us),
			    US(k[n].dur_us));
		gen_ev_str(&g, ev, "hlo_op", k[n].op);
		if (k[n].scope >= 0)
			gen_ev_i64(&g, ev, "scope_range_id", k[n].scope);
	}
	gen_space_write(sp, dir, "ops_gpu_cost.xplane.pb");
}

/*
 * GPU op calls from the host (EXPECTED.md section 17e): kernels without a
 * scope_range_id on two GPUs, launched (correlation_id) from two launch
 * threads while two executor threads run the ops' thunks at once, so that
 * some launches lie in thunks of both; a nested thunk, a launch no thunk
 * holds, a correlation id launched twice, a kernel with no id.
 */
static void synth_ops_host_calls(const char *dir)
{
	static const struct {
		int device;	/* of the kernel */
		const char *op;
		int64_t corr;	/* -1: none */
	} k[] = {
		{0, "gemm.1", 1}, {0, "gemm.1", 2}, {0, "gemm.1", 3}, {0, "fusion.2", 4}, {0, "fusion.2", 5},
		{1, "gemm.1", 6}, {1, "gemm.1", 7}, {1, "copy.3", 8}, {1, "dup.4", 10}, {1, "plain.5", -1},
	};
	static const struct {
		int line;	/* 0, 1: launch threads; 2, 3: executors of GPU:0 and GPU:1 */
		const char *name;
		int64_t corr;	/* launches: their id; thunks -1 */
		int64_t start_us, end_us;
	} h[] = {
		{2, "gemm.1", -1, 0, 10}, {2, "gemm.1", -1, 20, 30}, {2, "fusion.2", -1, 38, 52},
		{2, "fusion.2", -1, 40, 50}, {2, "fusion.2", -1, 60, 70},
		{3, "gemm.1", -1, 1, 9}, {3, "gemm.1", -1, 32, 36}, {3, "dup.4", -1, 83, 90},
		{0, "hipModuleLaunchKernel", 1, 2, 3}, {0, "hipModuleLaunchKernel", 2, 5, 6},
		{0, "hipModuleLaunchKernel", 3, 22, 23}, {0, "hipModuleLaunchKernel", 4, 42, 43},
		{0, "hipModuleLaunchKernel", 5, 62, 63}, {1, "hipModuleLaunchKernel", 6, 3, 4},
		{1, "hipModuleLaunchKernel", 7, 33, 34}, {1, "hipModuleLaunchKernel", 8, 80, 81},
		{1, "hipModuleLaunchKernel", 10, 84, 85}, {0, "hipModuleLaunchKernel", 10, 86, 87},
	};
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g[2] = {gen_plane_add(sp, 1, "/device:GPU:0", 1000), gen_plane_add(sp, 2, "/device:GPU:1", 1000)};
	XLine *st[2] = {gen_line_add(&g[0], 1, "Stream #1(Kernel)", 1000), gen_line_add(&g[1], 1, "Stream #1(Kernel)", 1000)};
	struct gen_plane host = gen_plane_add(sp, 100, "/host:CPU", 1000);
	XLine *hl[4] = {gen_line_add(&host, 1, "Host Threads/1", 1000), gen_line_add(&host, 2, "Host Threads/2", 1000),
			gen_line_add(&host, 10, "py_xla_execute/10", 1000),
			gen_line_add(&host, 11, "py_xla_execute/11", 1000)};
	XEvent *ev;
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		ev = kernel(&g[k[i].device], st[k[i].device], "kern", "jit_f", 7, US(10 * (int64_t)i), US(1));
		gen_ev_str(&g[k[i].device], ev, "hlo_op", k[i].op);
		if (k[i].corr >= 0)
			gen_ev_i64(&g[k[i].device], ev, "correlation_id", k[i].corr);
	}
	for (i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		ev = gen_ev_add(&host, hl[h[i].line], h[i].name, US(h[i].start_us), US(h[i].end_us - h[i].start_us));
		if (h[i].corr >= 0)
			gen_ev_i64(&host, ev, "correlation_id", h[i].corr);
	}
	gen_space_write(sp, dir, "ops_host_calls.xplane.pb");
}

/*
 * Pooling devices that joined differently (EXPECTED.md section 17g): an
 * op costed on one GPU (its kernel has a scope_range_id) and not on the
 * other (no id, no launch to find); and a thunk event on the host that
 * holds the launches of two GPUs' kernels, a call on each.
 */
static void synth_ops_gpu_pooled(const char *dir)
{
	static const int64_t d_v[] = {256}, add_ops[] = {1, 2};
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g[2] = {gen_plane_add(sp, 1, "/device:GPU:0", 1000), gen_plane_add(sp, 2, "/device:GPU:1", 1000)};
	XLine *st[2] = {gen_line_add(&g[0], 1, "Stream #1(Kernel)", 1000), gen_line_add(&g[1], 1, "Stream #1(Kernel)", 1000)};
	struct gen_plane host = gen_plane_add(sp, 100, "/host:CPU", 1000), md;
	XLine *launch = gen_line_add(&host, 1, "Host Threads/1", 1000);
	XLine *exec = gen_line_add(&host, 10, "py_xla_execute/10", 1000);
	Xla__HloModuleProto *m = gen_hlo_module("jit_f", "main", 1);
	Xla__HloComputationProto *c = gen_hlo_comp(m, "main", 1, 3);
	Xla__HloInstructionProto *i;
	struct gen_bytes hlo;
	XEvent *ev;
	int d;

	gen_hlo_instr(c, "x", "parameter", 1, 11, 1, d_v);
	i = gen_hlo_instr(c, "y", "parameter", 2, 11, 1, d_v);
	i->parameter_number = 1;
	i = gen_hlo_instr(c, "add.3", "add", 3, 11, 1, d_v);
	gen_hlo_refs(i, 2, add_ops, 0, NULL);
	hlo = gen_hlo_pack(m);
	md = gen_plane_add(sp, 99, "/host:metadata", 0);
	gen_md_bytes(&md, "jit_f(7)", "Hlo Proto", &hlo);
	free(hlo.p);
	ev = kernel(&g[0], st[0], "add", "jit_f", 7, US(0), US(1));
	gen_ev_str(&g[0], ev, "hlo_op", "add.3");
	gen_ev_i64(&g[0], ev, "scope_range_id", 1);
	ev = kernel(&g[1], st[1], "add", "jit_f", 7, US(0), US(1));
	gen_ev_str(&g[1], ev, "hlo_op", "add.3");
	for (d = 0; d < 2; d++) {	/* gemm.1 on each GPU, both launched inside one thunk event */
		ev = kernel(&g[d], st[d], "gemm", "jit_f", 7, US(20), US(2));
		gen_ev_str(&g[d], ev, "hlo_op", "gemm.1");
		gen_ev_i64(&g[d], ev, "correlation_id", d + 1);
		ev = gen_ev_add(&host, launch, "hipModuleLaunchKernel", US(2 + 3 * d), US(1));
		gen_ev_i64(&host, ev, "correlation_id", d + 1);
	}
	gen_ev_add(&host, exec, "gemm.1", US(0), US(10));
	gen_space_write(sp, dir, "ops_gpu_pooled.xplane.pb");
}

/*
 * A TPU with a SparseCore (EXPECTED.md section 17h): TPU:0 runs jit_f(1)
 * over 0-100 us with two ops; its SparseCore, a plane of its own, runs
 * jit_f(1) over 10-60 us on its "Sparse Core Modules" line, three ops (one
 * nested) on "Sparse Core Ops" and a step on "Sparse Core Steps".
 */
static void synth_sparsecore(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane tc = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	struct gen_plane sc = gen_plane_add(sp, 2, "/device:TPU:0 SparseCore 0", 1000);
	XLine *mods = gen_line_add(&tc, 1, "XLA Modules", 1000), *ops = gen_line_add(&tc, 2, "XLA Ops", 1000);
	XLine *smods = gen_line_add(&sc, 1, "Sparse Core Modules", 1000);
	XLine *sops = gen_line_add(&sc, 2, "Sparse Core Ops", 1000);
	XLine *ssteps = gen_line_add(&sc, 3, "Sparse Core Steps", 1000);

	gen_ev_add(&tc, mods, "jit_f(1)", US(0), US(100));
	op_md(&tc, "fusion.1", "fusion.1", "loop fusion", 0, -1, 0);
	op_md(&tc, "fusion.2", "fusion.2", "loop fusion", 0, -1, 0);
	gen_ev_add(&tc, ops, "fusion.1", US(0), US(40));
	gen_ev_add(&tc, ops, "fusion.2", US(50), US(40));
	gen_ev_add(&sc, smods, "jit_f(1)", US(10), US(50));
	op_md(&sc, "sc_gather.1", "sc_gather.1", "sparse core", 0, -1, 0);
	op_md(&sc, "sc_dma.2", "sc_dma.2", "sparse core", 0, -1, 0);
	op_md(&sc, "sc_scatter.3", "sc_scatter.3", "sparse core", 0, -1, 0);
	gen_ev_add(&sc, sops, "sc_gather.1", US(10), US(20));
	gen_ev_add(&sc, sops, "sc_dma.2", US(12), US(8));	/* inside sc_gather.1 */
	gen_ev_add(&sc, sops, "sc_scatter.3", US(40), US(15));
	gen_ev_add(&sc, ssteps, "0", US(10), US(50));
	gen_space_write(sp, dir, "sparsecore.xplane.pb");
}

/* TPU:0 (base 1000 ns) with peak stats and its XLA Modules (line 1) and XLA Ops (line 2) lines. */
static struct gen_plane tpu_with_peaks(XSpace *sp, double tflops, double gbs, XLine **mods, XLine **ops)
{
	struct gen_plane t0 = gen_plane_add(sp, 1, "/device:TPU:0", 1000);

	gen_plane_f64(&t0, "peak_teraflops_per_second", tflops);
	gen_plane_f64(&t0, "peak_hbm_bw_gigabytes_per_second", gbs);
	*mods = gen_line_add(&t0, 1, "XLA Modules", 1000);
	*ops = gen_line_add(&t0, 2, "XLA Ops", 1000);
	return t0;
}

/*
 * Utilization's edges (EXPECTED.md section 17i): TPU:0 (100 TFLOP/s) with
 * an op holding a zero-length marker, and a "Sparse Core Ops" line on the
 * TensorCore's own plane, whose FLOPs are not the TensorCore's.
 */
static void synth_util_edges(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	XLine *mods, *ops, *sc;
	struct gen_plane t0 = tpu_with_peaks(sp, 100, 50, &mods, &ops);

	sc = gen_line_add(&t0, 3, "Sparse Core Ops", 1000);
	gen_ev_add(&t0, mods, "jit_f(1)", US(0), US(100));
	op_md(&t0, "fusion.1", "fusion.1", "loop fusion", 1000000000, -1, 1);
	op_md(&t0, "marker.2", "marker.2", "other", 0, -1, 1);
	op_md(&t0, "sc.3", "sc.3", "sparse core", 5000000000, -1, 1);
	gen_ev_add(&t0, ops, "fusion.1", US(0), US(10));
	gen_ev_add(&t0, ops, "marker.2", US(5), 0);
	gen_ev_add(&t0, sc, "sc.3", US(50), US(50));
	gen_space_write(sp, dir, "util_edges.xplane.pb");
}

/*
 * Scenario 24 (executions by scope ranges): a GPU plane and XLA's tree of
 * scope ranges, no host plane. jit_f runs twice back to back (kernels a, b,
 * a, b with no gap: the runs rule would see one call), each call's kernels
 * under a root of their own; then a kernel whose id climbs a cycle, one
 * whose id the tree gives two parents (the first counts), one whose id the
 * tree does not hold, one whose id is a root, and a kernel of jit_g under
 * one of jit_f's roots. Answers in tests/synth/EXPECTED.md section 24.
 */
static void synth_scope_ranges(const char *dir)
{
	static const int64_t edge[][2] = {
		{100, 1}, {101, 1}, {200, 2}, {201, 2}, {300, 301}, {301, 300}, {400, 4}, {400, 5},
	};
	static const struct {
		const char *name, *module;
		int64_t scope, start_us, dur_us;
	} k[] = {
		{"a", "jit_f", 100, 0, 10}, {"b", "jit_f", 101, 10, 10}, {"a", "jit_f", 200, 20, 10},
		{"b", "jit_f", 201, 30, 10}, {"a", "jit_f", 300, 50, 5}, {"a", "jit_f", 400, 60, 10},
		{"b", "jit_f", 999, 70, 3},
		{"c", "jit_f", 1, 80, 2},	/* the root itself */
		{"g", "jit_g", 201, 90, 1},	/* another function under jit_f's root 2 */
	};
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 1000);
	struct gen_plane tree = gen_plane_add(sp, 2, "/host:__ScopeRangeCallStack__", 0);
	XLine *st = gen_line_add(&g, 1, "Stream #1(Compute)", 1000);
	XEvent *ev;
	XStat *x;
	size_t i;

	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		x = gen_stat_add(&tree.xp->n_stats, &tree.xp->stats, edge[i][0]);
		x->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE;
		x->int64_value = edge[i][1];
	}
	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		ev = kernel(&g, st, k[i].name, k[i].module, 7, US(k[i].start_us), US(k[i].dur_us));
		gen_ev_i64(&g, ev, "scope_range_id", k[i].scope);
		gen_ev_i64(&g, ev, "correlation_id", (int64_t)i + 1);
	}
	gen_space_write(sp, dir, "scope_ranges.xplane.pb");
}

/* An aggregated event (AggregateXPlane's): n occurrences of name with their total; self, min -1: left out. */
static XEvent *agg_add(struct gen_plane *p, XLine *ln, const char *name, int64_t n, int64_t total,
		       int64_t self, int64_t min)
{
	XEvent *ev = gen_ev_add(p, ln, name, 0, total);

	ev->data_case = TENSORFLOW__PROFILER__XEVENT__DATA_NUM_OCCURRENCES;
	ev->num_occurrences = n;
	if (self >= 0)
		gen_ev_i64(p, ev, "self_duration_ps", self);
	if (min >= 0)
		gen_ev_i64(p, ev, "min_duration_ps", min);
	return ev;
}

/*
 * Scenario 25 (aggregated events): TPU:0 (100 TFLOP/s) as XProf's
 * AggregateXPlane writes it. XLA Ops: fusion.1 4 times, 40 us in all, self
 * 30 us, shortest 8 us, 1e9 flops each; convolution.2 4 times, 10 us, no
 * self (nothing nested: self is the total), shortest 2 us, 5e8 flops each;
 * copy.3 once, 5 us. XLA Modules: jit_f(1) 4 times, 55 us, its shortest
 * left out. Steps: step 0 [0,60] us, timed as the writer copies it. GPU:0:
 * one aggregated kernel on a stream line (ops leaves it out). Answers in
 * tests/synth/EXPECTED.md section 25.
 */
static void synth_aggregated(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	XLine *mods, *ops, *st, *gl;
	struct gen_plane t0 = tpu_with_peaks(sp, 100, 50, &mods, &ops);
	struct gen_plane g = gen_plane_add(sp, 2, "/device:GPU:0", 1000);

	st = gen_line_add(&t0, 3, "Steps", 1000);
	op_md(&t0, "fusion.1", "fusion.1", "loop fusion", 1000000000, -1, 1);
	op_md(&t0, "convolution.2", "convolution.2", "convolution", 500000000, -1, 1);
	op_md(&t0, "copy.3", "copy.3", "copy", 0, -1, 0);
	agg_add(&t0, mods, "jit_f(1)", 4, US(55), -1, -1);
	agg_add(&t0, ops, "fusion.1", 4, US(40), US(30), US(8));
	agg_add(&t0, ops, "convolution.2", 4, US(10), -1, US(2));
	agg_add(&t0, ops, "copy.3", 1, US(5), -1, -1);
	gen_ev_add(&t0, st, "0", US(0), US(60));
	gl = gen_line_add(&g, 1, "Stream #1(Compute)", 1000);
	gen_ev_i64(&g, agg_add(&g, gl, "loop_fusion", 3, US(9), -1, US(3)), "hlo_op", 1);
	gen_space_write(sp, dir, "aggregated.xplane.pb");

	/* aggregated_mixed: TPU:0's XLA Ops hold fusion.1 timed [0,10] us and 4 more aggregated (40 us). */
	sp = gen_space_new(NULL);
	t0 = tpu_with_peaks(sp, 100, 50, &mods, &ops);
	op_md(&t0, "fusion.1", "fusion.1", "loop fusion", 1000000000, -1, 1);
	gen_ev_add(&t0, ops, "fusion.1", US(0), US(10));
	agg_add(&t0, ops, "fusion.1", 4, US(40), -1, US(8));
	gen_space_write(sp, dir, "aggregated_mixed.xplane.pb");

	/* aggregated_big: 5e9 occurrences of fusion.1 (past 2^32) in 5 ms */
	sp = gen_space_new(NULL);
	t0 = tpu_with_peaks(sp, 100, 50, &mods, &ops);
	op_md(&t0, "fusion.1", "fusion.1", "loop fusion", 1000, -1, 1);
	agg_add(&t0, ops, "fusion.1", 5000000000LL, US(5000), -1, 1);
	gen_space_write(sp, dir, "aggregated_big.xplane.pb");
}

/*
 * Scenario 26 (counters): TPU:0 runs fusion.1 [0,40] us; its "_counters_"
 * line holds mxu_busy (counter_value, uint64) 10 at 0 us, 20 at 40 us
 * (written first) and 30 at 10 us; hbm_bw (a double stat named as the
 * counter, as PM sampling writes) 1.5 at 0 us and 2.5 at 20 us; vpu_ops,
 * one sample at 5 us whose only numeric stat ("value", int64) is 7; bad,
 * one sample carrying a string only. GPU:0's "_counters_" holds sm_active
 * 50 at 0 and 70 at 10 us (counter_value on the metadata, shared). Answers
 * in tests/synth/EXPECTED.md section 26.
 */
static void synth_counters(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	XLine *mods, *ops, *cnt;
	struct gen_plane t0 = tpu_with_peaks(sp, 100, 50, &mods, &ops);
	struct gen_plane g = gen_plane_add(sp, 2, "/device:GPU:0", 1000);
	XEvent *ev;

	gen_ev_add(&t0, mods, "jit_f(1)", US(0), US(40));
	gen_ev_add(&t0, ops, "fusion.1", US(0), US(40));
	cnt = gen_line_add(&t0, 3, "_counters_", 1000);
	gen_ev_u64(&t0, gen_ev_add(&t0, cnt, "mxu_busy", US(0), 0), "counter_value", 10);
	gen_ev_u64(&t0, gen_ev_add(&t0, cnt, "mxu_busy", US(40), 0), "counter_value", 20);
	gen_ev_u64(&t0, gen_ev_add(&t0, cnt, "mxu_busy", US(10), 0), "counter_value", 30);
	gen_ev_f64(&t0, gen_ev_add(&t0, cnt, "hbm_bw", US(0), 0), "hbm_bw", 1.5);
	gen_ev_f64(&t0, gen_ev_add(&t0, cnt, "hbm_bw", US(20), 0), "hbm_bw", 2.5);
	ev = gen_ev_add(&t0, cnt, "vpu_ops", US(5), 0);
	gen_ev_str(&t0, ev, "unit", "ops");
	gen_ev_i64(&t0, ev, "value", 7);
	gen_ev_str(&t0, gen_ev_add(&t0, cnt, "bad", US(6), 0), "unit", "none");
	cnt = gen_line_add(&g, 1, "_counters_", 1000);
	gen_md_i64(&g, "sm_active", "counter_value", 50);
	gen_ev_add(&g, cnt, "sm_active", US(0), 0);
	gen_ev_i64(&g, gen_ev_add(&g, cnt, "sm_active", US(10), 0), "counter_value", 70);
	gen_space_write(sp, dir, "counters.xplane.pb");

	/*
	 * counters_dup: TPU:0 with two "_counters_" lines and two metadata
	 * entries named "c": one counter c, 10 at 0 us (line 1), 30 at 10 us
	 * (line 2, the second metadata), 20 at 20 us (line 1), 40 at 30 us
	 * (line 2, the first metadata).
	 */
	sp = gen_space_new(NULL);
	t0 = tpu_with_peaks(sp, 100, 50, &mods, &ops);
	gen_ev_add(&t0, ops, "fusion.1", US(0), US(20));
	cnt = gen_line_add(&t0, 3, "_counters_", 1000);
	gen_ev_u64(&t0, gen_ev_add(&t0, cnt, "c", US(0), 0), "counter_value", 10);
	gen_ev_u64(&t0, gen_ev_add(&t0, cnt, "c", US(20), 0), "counter_value", 20);
	cnt = gen_line_add(&t0, 4, "_counters_", 1000);
	gen_ev_u64(&t0, gen_ev_add(&t0, cnt, "c#2", US(10), 0), "counter_value", 30);
	gen_ev_u64(&t0, gen_ev_add(&t0, cnt, "c", US(30), 0), "counter_value", 40);
	{	/* a second metadata of the name */
		XEventMetadata *m = gen_event_md(&t0, "c#2");

		free(m->name);
		m->name = xstrdup("c");
	}
	gen_space_write(sp, dir, "counters_dup.xplane.pb");
}

/* An XLA:CPU thunk on host line ln: hlo_op, hlo_module, program_id and run_id (<0: left out). */
static void cpu_thunk(struct gen_plane *h, XLine *ln, const char *op, const char *mod, int64_t program,
		      int64_t run, int64_t start_us, int64_t dur_us)
{
	XEvent *ev = gen_ev_add(h, ln, op, US(start_us), US(dur_us));

	gen_ev_str(h, ev, "hlo_op", op);
	gen_ev_str(h, ev, "hlo_module", mod);
	if (program >= 0)
		gen_ev_i64(h, ev, "program_id", program);
	if (run >= 0)
		gen_ev_i64(h, ev, "run_id", run);
}

/*
 * Scenario 27 (XLA:CPU): a CPU-only JAX profile, /host:CPU alone. Thread
 * main runs PjRtCpuExecutable::ExecuteHelper and thunks, thread eigen
 * thunks beside them. jit_f (program 77) runs twice: run 1 fusion.1
 * [1,11] (main), dot.2 [2,12] (eigen), copy.3 [13,15] (main), an "end:
 * fusion.1" marker at 11; run 2 fusion.1 [41,51], dot.2 [41,49]. jit_g
 * (88, run 3): add.1 [70,75]. jit_h with no program or run id: mul.1
 * [80,82] and [82,84] (touching: one execution), [90,91] (another).
 * Answers in tests/synth/EXPECTED.md section 27.
 */
static void synth_cpu(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane h = gen_plane_add(sp, 1, "/host:CPU", 1000);
	XLine *main_ln = gen_line_add(&h, 100, "main/100", 1000);
	XLine *eigen = gen_line_add(&h, 101, "XLAEigen/101", 1000);

	gen_ev_i64(&h, gen_ev_add(&h, main_ln, "PjRtCpuExecutable::ExecuteHelper", US(0), US(16)), "run_id", 1);
	cpu_thunk(&h, main_ln, "fusion.1", "jit_f", 77, 1, 1, 10);
	gen_ev_add(&h, main_ln, "end: fusion.1", US(11), 0);
	cpu_thunk(&h, main_ln, "copy.3", "jit_f", 77, 1, 13, 2);
	cpu_thunk(&h, eigen, "dot.2", "jit_f", 77, 1, 2, 10);
	gen_ev_i64(&h, gen_ev_add(&h, main_ln, "PjRtCpuExecutable::ExecuteHelper", US(40), US(12)), "run_id", 2);
	cpu_thunk(&h, main_ln, "fusion.1", "jit_f", 77, 2, 41, 10);
	cpu_thunk(&h, eigen, "dot.2", "jit_f", 77, 2, 41, 8);
	cpu_thunk(&h, main_ln, "add.1", "jit_g", 88, 3, 70, 5);
	cpu_thunk(&h, main_ln, "mul.1", "jit_h", -1, -1, 80, 2);
	cpu_thunk(&h, main_ln, "mul.1", "jit_h", -1, -1, 82, 2);
	cpu_thunk(&h, main_ln, "mul.1", "jit_h", -1, -1, 90, 1);
	gen_ev_add(&h, main_ln, "PjitFunction(f)", US(95), US(1));
	gen_space_write(sp, dir, "cpu.xplane.pb");

	/*
	 * cpu_overlap: jit_f (77, run 1) [0,10] on thread a (fusion.1 [0,2],
	 * dot.2 [4,5], copy.3 [8,10]) while jit_g (88, run 2) runs add.1 [3,5]
	 * on thread b, and a module named "jit_x(5)" with no program or run id.
	 */
	sp = gen_space_new(NULL);
	h = gen_plane_add(sp, 1, "/host:CPU", 1000);
	main_ln = gen_line_add(&h, 1, "a/1", 1000);
	eigen = gen_line_add(&h, 2, "b/2", 1000);
	cpu_thunk(&h, main_ln, "fusion.1", "jit_f", 77, 1, 0, 2);
	cpu_thunk(&h, main_ln, "dot.2", "jit_f", 77, 1, 4, 1);
	cpu_thunk(&h, main_ln, "copy.3", "jit_f", 77, 1, 8, 2);
	cpu_thunk(&h, eigen, "add.1", "jit_g", 88, 2, 3, 2);
	cpu_thunk(&h, eigen, "sub.1", "jit_x(5)", -1, -1, 20, 1);
	/* jit_y (9) with no run id, in two executable calls: [30,40] holds neg.1 and neg.2, [50,60] neg.1 */
	gen_ev_add(&h, main_ln, "TfrtCpuExecutable::ExecuteHelper", US(30), US(10));
	cpu_thunk(&h, main_ln, "neg.1", "jit_y", 9, -1, 31, 1);
	cpu_thunk(&h, eigen, "neg.2", "jit_y", 9, -1, 35, 1);
	gen_ev_add(&h, main_ln, "TfrtCpuExecutable::ExecuteHelper", US(50), US(10));
	cpu_thunk(&h, main_ln, "neg.1", "jit_y", 9, -1, 51, 1);
	gen_space_write(sp, dir, "cpu_overlap.xplane.pb");
}

/*
 * Scenario 18a (overview --steps): TPU:0 (peak 200 TFLOP/s) with a Steps
 * line [0,20] [20,40] us; XLA Ops: fusion.1 [0,10] (1e9 flops) holding
 * convolution.2 [2,6] (4e8), copy.3 [12,15] (no flops), all-reduce.4
 * [20,30] (1e8), fusion.5 [30,40] (2e9). Answers in tests/synth/EXPECTED.md
 * section 18a.
 */
static void synth_steps_tpu(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	XLine *mods, *ops, *st;
	struct gen_plane t0 = tpu_with_peaks(sp, 200, 100, &mods, &ops);

	st = gen_line_add(&t0, 3, "Steps", 1000);
	gen_ev_add(&t0, mods, "jit_f(1)", US(0), US(40));
	op_md(&t0, "fusion.1", "fusion.1", "loop fusion", 1000000000, -1, 1);
	op_md(&t0, "convolution.2", "convolution.2", "convolution", 400000000, -1, 1);
	op_md(&t0, "copy.3", "copy.3", "copy", 0, -1, 0);
	op_md(&t0, "all-reduce.4", "all-reduce.4", "all-reduce", 100000000, -1, 1);
	op_md(&t0, "fusion.5", "fusion.5", "loop fusion", 2000000000, -1, 1);
	gen_ev_add(&t0, ops, "fusion.1", US(0), US(10));
	gen_ev_add(&t0, ops, "convolution.2", US(2), US(4));
	gen_ev_add(&t0, ops, "copy.3", US(12), US(3));
	gen_ev_add(&t0, ops, "all-reduce.4", US(20), US(10));
	gen_ev_add(&t0, ops, "fusion.5", US(30), US(10));
	gen_ev_add(&t0, st, "0", US(0), US(20));
	gen_ev_add(&t0, st, "1", US(20), US(20));
	gen_space_write(sp, dir, "steps_tpu.xplane.pb");
}

/*
 * Scenario 18b (host steps): GPU:0 runs one kernel [0,10] us and has a
 * Steps line [0,15]; the host (same base) marks steps 1 [0,12], 2 [20,30]
 * and 3 [40,45] with step_num. steps_host_only.xplane.pb: the host plane
 * alone. Answers in tests/synth/EXPECTED.md section 18b.
 */
static void synth_steps_host(const char *dir)
{
	static const int64_t hs[][3] = {{1, 0, 12}, {2, 20, 10}, {3, 40, 5}};
	size_t i, only;

	for (only = 0; only < 2; only++) {
		XSpace *sp = gen_space_new(NULL);
		struct gen_plane g, h;
		XLine *hl;

		if (!only) {
			g = gen_plane_add(sp, 1, "/device:GPU:0", 1000);
			gen_ev_add(&g, gen_line_add(&g, 1, "Stream #1(Compute)", 1000), "fusion_a", US(0), US(10));
			gen_ev_add(&g, gen_line_add(&g, 2, "Steps", 1000), "1", US(0), US(15));
		}
		h = gen_plane_add(sp, 2, "/host:CPU", 1000);
		hl = gen_line_add(&h, 1, "python", 1000);
		for (i = 0; i < sizeof(hs) / sizeof(hs[0]); i++)
			gen_ev_i64(&h, gen_ev_add(&h, hl, "train", US(hs[i][1]), US(hs[i][2])), "step_num", hs[i][0]);
		gen_space_write(sp, dir, only ? "steps_host_only.xplane.pb" : "steps_host.xplane.pb");
	}
}

/*
 * Scenario 18c (steps across devices): GPU:0 has steps 0 [0,10], 1
 * [10,30], 2 [30,35] us; GPU:1 has 0 [0,12], 1 [12,20]; one kernel each
 * [0,5]; the host marks step_num 0 over [0,14] (same base). Answers in
 * tests/synth/EXPECTED.md section 18c.
 */
static void synth_steps_devices(const char *dir)
{
	static const int64_t st[2][3][2] = {{{0, 10}, {10, 30}, {30, 35}}, {{0, 12}, {12, 20}, {-1, -1}}};
	XSpace *sp = gen_space_new(NULL);
	size_t d, i;

	for (d = 0; d < 2; d++) {
		struct gen_plane g = gen_plane_add(sp, (int64_t)d + 1, d ? "/device:GPU:1" : "/device:GPU:0", 1000);
		XLine *sl;
		char name[8];

		gen_ev_add(&g, gen_line_add(&g, 1, "Stream #1(Compute)", 1000), "fusion_a", US(0), US(5));
		sl = gen_line_add(&g, 2, "Steps", 1000);
		for (i = 0; i < 3 && st[d][i][0] >= 0; i++) {
			snprintf(name, sizeof(name), "%zu", i);
			gen_ev_add(&g, sl, name, US(st[d][i][0]), US(st[d][i][1] - st[d][i][0]));
		}
	}
	{
		struct gen_plane h = gen_plane_add(sp, 3, "/host:CPU", 1000);

		gen_ev_i64(&h, gen_ev_add(&h, gen_line_add(&h, 1, "python", 1000), "train", US(0), US(14)), "step_num",
			   0);
	}
	gen_space_write(sp, dir, "steps_devices.xplane.pb");
}

static void synth_ops_framework(const char *dir);

/*
 * Scenario 17 (the ops command): TPU:0 with peak stats (100 TFLOP/s,
 * 50 GB/s), an XLA Modules event, nested ops, a partial overlap, a negative
 * flops stat and an Async XLA Ops line; TPU:1 with no peaks but a chip the
 * table knows (TPU v5 Lite), 11 ops, one stray end; a GPU trace with
 * hlo_op kernels. Answers in tests/synth/EXPECTED.md section 17.
 */
static void synth_ops(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane t0, t1, g;
	XLine *mod, *ops, *as, *st;
	XEvent *ev;
	int i;

	t0 = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	gen_plane_str(&t0, "device_type_string", "TPU v6 Lite");
	gen_plane_f64(&t0, "peak_teraflops_per_second", 100);
	gen_plane_f64(&t0, "peak_hbm_bw_gigabytes_per_second", 50);
	mod = gen_line_add(&t0, 1, "XLA Modules", 1000);
	ops = gen_line_add(&t0, 2, "XLA Ops", 1000);
	as = gen_line_add(&t0, 3, "Async XLA Ops", 1000);
	gen_ev_add(&t0, mod, "jit_step(777)", US(0), US(100));
	op_md(&t0, "%while.1 = (f32[8]) while(...)", "while.1", "control flow", 0, -1, 0);
	op_md(&t0, "fusion.1", "fusion.1", "convolution fusion", 4000000000, 1000000, 1);
	op_md(&t0, "fusion.2", "fusion.2", "loop fusion", 1000000, 1000000, 1);
	op_md(&t0, "copy.1", "copy.1", "data formatting", 0, 2000000, 1);
	op_md(&t0, "fusion.3", "fusion.3", "loop fusion", -5, 1000, 1);
	op_md(&t0, "%copy-start.7 = (f32[8], f32[8]) copy-start(f32[8] %p)", "async-copy", "copy-start", 0,
	      4000000, 1);
	gen_ev_add(&t0, ops, "%while.1 = (f32[8]) while(...)", US(0), US(60));
	gen_ev_add(&t0, ops, "fusion.1", US(10), US(20));
	gen_ev_add(&t0, ops, "fusion.2", US(40), US(10));
	gen_ev_add(&t0, ops, "copy.1", US(55), US(15));	/* starts in while.1, ends after it */
	gen_ev_add(&t0, ops, "fusion.2", US(70), US(10));
	gen_ev_add(&t0, ops, "fusion.3", US(85), US(10));
	gen_ev_add(&t0, as, "%copy-start.7 = (f32[8], f32[8]) copy-start(f32[8] %p)", US(5), US(40));

	t1 = gen_plane_add(sp, 2, "/device:TPU:1", 2000);
	gen_plane_str(&t1, "device_type_string", "TPU v5 Lite");
	ops = gen_line_add(&t1, 2, "XLA Ops", 2000);
	op_md(&t1, "fusion.9", "fusion.9", "loop fusion", 2000000, 1000000, 1);
	gen_md_i64(&t1, "fusion.9", "program_id", 42);
	op_md(&t1, "fusion.2", "fusion.2", "loop fusion", 1000000, 1000000, 1);
	gen_md_i64(&t1, "fusion.2", "program_id", 777);
	for (i = 0; i <= 10; i++)
		gen_ev_add(&t1, ops, "fusion.9", US(2 * i), US(1));
	gen_ev_add(&t1, ops, "fusion.2", US(30), US(5));
	gen_ev_add(&t1, ops, "fusion.9", US(20), US(1000000));	/* a stray end */
	gen_space_write(sp, dir, "ops_tpu.xplane.pb");

	sp = gen_space_new(NULL);
	g = gen_plane_add(sp, 1, "/device:GPU:0", 1000);
	st = gen_line_add(&g, 1, "Stream #1(Kernel)", 1000);
	ev = kernel(&g, st, "gemm_kernel", "jit_mm", 5, US(0), US(10));
	gen_ev_str(&g, ev, "hlo_op", "dot.1");
	ev = kernel(&g, st, "fused_add", "jit_mm", 5, US(12), US(3));
	gen_ev_str(&g, ev, "hlo_op", "add_fusion");
	ev = kernel(&g, st, "gemm_kernel", "jit_mm", 5, US(20), US(10));
	gen_ev_str(&g, ev, "hlo_op", "dot.1");
	kernel(&g, st, "other", NULL, -1, US(40), US(1));
	gen_ev_add(&g, st, "MemcpyH2D", US(50), US(2));
	gen_space_write(sp, dir, "ops_gpu.xplane.pb");
	synth_ops_gpu_calls(dir);
	synth_ops_gpu_cost(dir);
	synth_ops_host_calls(dir);
	synth_ops_gpu_pooled(dir);
	synth_sparsecore(dir);
	synth_util_edges(dir);
	synth_ops_framework(dir);
}

/*
 * Scenario 17j (ops --by framework): a TensorFlow GPU plane whose kernels
 * name their framework op by a tf_op stat or an annotation stack, some
 * naming none, one an XLA op (hlo_op) whose module's HLO the trace lacks,
 * one a hostile name; a copy with an annotation. Answers in
 * tests/synth/EXPECTED.md section 17j.
 */
static void synth_ops_framework(const char *dir)
{
	static const struct {
		const char *tf_op, *annotation, *hlo_op;	/* NULL: none */
		int64_t dur_us;
	} k[] = {
		{"model/dense/MatMul:MatMul", NULL, NULL, 10},
		{NULL, "model/dense/MatMul:MatMul#id=1#", NULL, 20},
		{NULL, "outer/PartitionedCall:PartitionedCall#a=1#::inner/Relu:Relu#b=2#", NULL, 5},
		{"XlaModule:", "#edge_name=x#", NULL, 4},
		{"XlaModule:", NULL, "fusion.1", 7},
		{"bad", "Mul_1:Mul", NULL, 3},
		{":", "model/dense/BiasAdd:BiasAdd", NULL, 6},
		{NULL, "evil\x1b[31m/op:Ty\tpe", NULL, 1},
		{"out:Identity", NULL, NULL, 2},	/* one name, two types: two ops */
		{NULL, "out:AddV2#x=1#", NULL, 4},
	};
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0", 1000);
	XLine *st = gen_line_add(&g, 1, "Stream #1(Compute)", 1000);
	XEvent *ev;
	size_t i;
	int64_t t = 0;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		ev = kernel(&g, st, "kern", k[i].hlo_op ? "jit_f" : NULL, k[i].hlo_op ? 3 : -1, US(t), US(k[i].dur_us));
		if (k[i].tf_op)
			gen_ev_str(&g, ev, "tf_op", k[i].tf_op);
		if (k[i].annotation)
			gen_ev_str(&g, ev, "annotation", k[i].annotation);
		if (k[i].hlo_op)
			gen_ev_str(&g, ev, "hlo_op", k[i].hlo_op);
		t += k[i].dur_us + 1;
	}
	ev = gen_ev_add(&g, st, "MemcpyH2D", US(t), US(2));
	gen_ev_str(&g, ev, "annotation", "model/dense/MatMul:MatMul");
	gen_space_write(sp, dir, "ops_framework.xplane.pb");
}

/*
 * Scenario 17a (ops --by scope/--by source/--folded, hlo): TPU:0 runs
 * jit_train(777), whose HLO the metadata plane carries (a dot, two fusions,
 * a while, a copy without metadata; one source line by stack frame), and
 * jit_eval(888), whose HLO it does not; one op of jit_train is not in its
 * HLO; a module jit_broken(999) carries bytes that are no HLO. Answers in
 * tests/synth/EXPECTED.md section 17a.
 */
static void synth_ops_hlo(const char *dir)
{
	static const int64_t d_x[] = {128, 512}, d_w[] = {512, 256}, d_y[] = {128, 256};
	static const int64_t relu_ops[] = {100, 101}, add_ops[] = {200, 201}, dot_ops[] = {400, 401};
	static const int64_t on_dot[] = {402}, on_relu[] = {403, 402}, calls1[] = {1}, calls2[] = {2}, calls3[] = {3};
	static const int64_t lc[] = {1}, rc[] = {0};
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane t0, md;
	XLine *mods, *ops;
	Xla__HloModuleProto *m = gen_hlo_module("jit_train", "main", 4);
	Xla__HloComputationProto *c;
	Xla__HloInstructionProto *i;
	Xla__StackFrameIndexProto *sf = gen_alloc(sizeof(*sf));
	Xla__StackFrameIndexProto__FileLocation *loc = gen_alloc(sizeof(*loc));
	Xla__StackFrameIndexProto__StackFrame *fr = gen_alloc(sizeof(*fr));
	Xla__DotDimensionNumbers *dn = gen_alloc(sizeof(*dn));
	struct gen_bytes hlo, junk = {(uint8_t *)"\xff\xff\xff\xff", 4};

	c = gen_hlo_comp(m, "fused_relu", 1, 102);
	gen_hlo_instr(c, "param_0", "parameter", 100, 11, 2, d_y);
	gen_hlo_instr(c, "constant_0", "constant", 101, 11, 0, NULL);
	i = gen_hlo_instr(c, "maximum.1", "maximum", 102, 11, 2, d_y);
	gen_hlo_meta(i, "jit(train)/layer_0/relu/max", NULL, 0, 0);	/* the fusion's own name is used */
	gen_hlo_refs(i, 2, relu_ops, 0, NULL);
	c = gen_hlo_comp(m, "fused_add", 2, 202);
	gen_hlo_instr(c, "param_0.1", "parameter", 200, 11, 2, d_y);
	i = gen_hlo_instr(c, "param_1.1", "parameter", 201, 11, 2, d_y);
	i->parameter_number = 1;
	i = gen_hlo_instr(c, "add.2", "add", 202, 11, 2, d_y);
	gen_hlo_refs(i, 2, add_ops, 0, NULL);
	c = gen_hlo_comp(m, "body", 3, 300);
	gen_hlo_instr(c, "p.3", "parameter", 300, 11, 2, d_y);
	c = gen_hlo_comp(m, "main", 4, 406);
	gen_hlo_instr(c, "x", "parameter", 400, 16, 2, d_x);
	i = gen_hlo_instr(c, "w", "parameter", 401, 16, 2, d_w);
	i->parameter_number = 1;
	i = gen_hlo_instr(c, "dot.1", "dot", 402, 11, 2, d_y);
	gen_hlo_meta(i, "jit(train)/layer_0/dense/dot_general", "model.py", 10, 0);
	i->metadata->op_type = xstrdup("Dot");	/* the framework op's type, where the HLO names one */
	gen_hlo_refs(i, 2, dot_ops, 0, NULL);
	xla__dot_dimension_numbers__init(dn);
	dn->n_lhs_contracting_dimensions = dn->n_rhs_contracting_dimensions = 1;
	dn->lhs_contracting_dimensions = gen_alloc(sizeof(int64_t));
	dn->rhs_contracting_dimensions = gen_alloc(sizeof(int64_t));
	memcpy(dn->lhs_contracting_dimensions, lc, sizeof(lc));
	memcpy(dn->rhs_contracting_dimensions, rc, sizeof(rc));
	i->dot_dimension_numbers = dn;
	i = gen_hlo_instr(c, "fusion.2", "fusion", 403, 11, 2, d_y);
	i->fusion_kind = xstrdup("kLoop");
	gen_hlo_meta(i, "jit(train)/layer_0/relu", NULL, 0, 1);	/* source by stack frame 1: model.py:11 */
	gen_hlo_refs(i, 1, on_dot, 1, calls1);
	i = gen_hlo_instr(c, "fusion.3", "fusion", 404, 11, 2, d_y);
	i->fusion_kind = xstrdup("kLoop");
	gen_hlo_meta(i, "jit(train)/layer_1/dense/add", "model.py", 20, 0);
	gen_hlo_refs(i, 2, on_relu, 1, calls2);
	i = gen_hlo_instr(c, "copy.4", "copy", 405, 11, 2, d_y);	/* no metadata */
	gen_hlo_refs(i, 1, on_dot, 0, NULL);
	i = gen_hlo_instr(c, "while.1", "while", 406, 11, 2, d_y);
	gen_hlo_meta(i, "jit(train)/while", "model.py", 30, 0);
	gen_hlo_refs(i, 1, on_dot, 1, calls3);
	xla__stack_frame_index_proto__init(sf);
	xla__stack_frame_index_proto__file_location__init(loc);
	xla__stack_frame_index_proto__stack_frame__init(fr);
	sf->n_file_names = 1;
	sf->file_names = gen_alloc(sizeof(char *));
	sf->file_names[0] = xstrdup("model.py");
	sf->n_function_names = 1;
	sf->function_names = gen_alloc(sizeof(char *));
	sf->function_names[0] = xstrdup("train");
	loc->file_name_id = 1;
	loc->function_name_id = 1;
	loc->line = 11;
	sf->n_file_locations = 1;
	sf->file_locations = gen_alloc(sizeof(loc));
	sf->file_locations[0] = loc;
	fr->file_location_id = 1;
	sf->n_stack_frames = 1;
	sf->stack_frames = gen_alloc(sizeof(fr));
	sf->stack_frames[0] = fr;
	m->stack_frame_index = sf;
	hlo = gen_hlo_pack(m);

	md = gen_plane_add(sp, 99, "/host:metadata", 0);
	gen_md_bytes(&md, "jit_train(777)", "Hlo Proto", &hlo);
	gen_md_bytes(&md, "jit_broken(999)", "Hlo Proto", &junk);
	free(hlo.p);
	t0 = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	mods = gen_line_add(&t0, 1, "XLA Modules", 1000);
	ops = gen_line_add(&t0, 2, "XLA Ops", 1000);
	gen_ev_add(&t0, mods, "jit_train(777)", US(0), US(100));
	gen_ev_add(&t0, mods, "jit_eval(888)", US(110), US(10));
	op_md(&t0, "dot.1", "dot.1", "convolution", 0, -1, 0);
	op_md(&t0, "fusion.2", "fusion.2", "loop fusion", 0, -1, 0);
	op_md(&t0, "fusion.3", "fusion.3", "loop fusion", 0, -1, 0);
	op_md(&t0, "copy.4", "copy.4", "data formatting", 0, -1, 0);
	op_md(&t0, "mystery.5", "mystery.5", "other", 0, -1, 0);
	op_md(&t0, "while.1", "while.1", "control flow", 0, -1, 0);
	op_md(&t0, "add.9", "add.9", "loop fusion", 0, -1, 0);
	gen_ev_add(&t0, ops, "dot.1", US(0), US(40));
	gen_ev_add(&t0, ops, "fusion.2", US(40), US(20));
	gen_ev_add(&t0, ops, "fusion.3", US(60), US(10));
	gen_ev_add(&t0, ops, "copy.4", US(70), US(5));
	gen_ev_add(&t0, ops, "mystery.5", US(75), US(2));
	gen_ev_add(&t0, ops, "while.1", US(80), US(20));
	gen_ev_add(&t0, ops, "fusion.3", US(85), US(10));	/* inside while.1 */
	gen_ev_add(&t0, ops, "add.9", US(110), US(5));
	gen_space_write(sp, dir, "ops_hlo.xplane.pb");
}

/*
 * Scenario 17b (escaping): an HLO whose names, op name, source file,
 * custom-call target and backend configuration hold control bytes, ';',
 * quotes, backslashes, '/', a newline and bytes that are not UTF-8, run by
 * one op. Every output must show them escaped (EXPECTED.md 17b).
 */
static void synth_ops_hlo_hostile(const char *dir)
{
	static const int64_t d4[] = {4};
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane t0, md;
	XLine *mods, *ops;
	Xla__HloModuleProto *m = gen_hlo_module("jit_\x1b[31mevil", "ma\"in", 1);
	Xla__HloComputationProto *c = gen_hlo_comp(m, "ma\"in", 1, 10);
	Xla__HloInstructionProto *i;
	struct gen_bytes hlo;
	const char *op = "cc\x1b;\"1\\";

	i = gen_hlo_instr(c, op, "custom-call", 10, 11, 1, d4);
	i->custom_call_target = xstrdup("t\"\\\x07");
	i->backend_config.data = (uint8_t *)xstrdup("{\"a\":\"\x1b\xff\n\"}");
	i->backend_config.len = strlen((const char *)i->backend_config.data);
	gen_hlo_meta(i, "jit(\x1b[2Jevil)/la;yer\\x3b/\n\"q\"//op\xff", "fi\tle\".py", 7, 0);
	hlo = gen_hlo_pack(m);
	md = gen_plane_add(sp, 99, "/host:metadata", 0);
	gen_md_bytes(&md, "jit_\x1b[31mevil(5)", "Hlo Proto", &hlo);
	free(hlo.p);
	t0 = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	mods = gen_line_add(&t0, 1, "XLA Modules", 1000);
	ops = gen_line_add(&t0, 2, "XLA Ops", 1000);
	gen_ev_add(&t0, mods, "jit_\x1b[31mevil(5)", US(0), US(10));
	op_md(&t0, op, op, "custom", 0, -1, 0);
	gen_ev_add(&t0, ops, op, US(1), US(4));
	gen_space_write(sp, dir, "ops_hlo_hostile.xplane.pb");
}

/*
 * Scenario 17, values the ops sums cannot use: TPU:0 (no peak stats, chip
 * "TPU v4": the table's peaks) with flops whose sum passes 2^64-1, a
 * bytes_accessed only one of two occurrences carries, a non-integral flops
 * and a NaN model_flops, and one op whose values are all good. Answers in
 * tests/synth/EXPECTED.md section 17.
 */
static void synth_ops_values(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane t0;
	XLine *ops;
	XEvent *ev;
	int i;

	t0 = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	gen_plane_str(&t0, "device_type_string", "TPU v4");
	ops = gen_line_add(&t0, 2, "XLA Ops", 1000);
	op_md(&t0, "big.1", "big.1", "loop fusion", 0, 1000, 0);
	op_md(&t0, "half.1", "half.1", "loop fusion", 100, -1, 1);
	op_md(&t0, "frac.1", "frac.1", "convolution fusion", 0, -1, 0);
	op_md(&t0, "ok.1", "ok.1", "convolution fusion", 1000000, 1000, 1);
	for (i = 0; i < 2; i++) {
		ev = gen_ev_add(&t0, ops, "big.1", US(10 * i), US(10));
		gen_ev_u64(&t0, ev, "flops", (uint64_t)1 << 63);	/* twice: 2^64 */
	}
	ev = gen_ev_add(&t0, ops, "half.1", US(20), US(10));
	gen_ev_i64(&t0, ev, "bytes_accessed", 5000);
	gen_ev_add(&t0, ops, "half.1", US(30), US(10));	/* no bytes_accessed */
	ev = gen_ev_add(&t0, ops, "frac.1", US(40), US(10));
	gen_ev_f64(&t0, ev, "flops", 1.5);
	gen_ev_f64(&t0, ev, "model_flops", NAN);
	gen_ev_f64(&t0, ev, "bytes_accessed", 3000.0);
	gen_ev_add(&t0, ops, "ok.1", US(50), US(5));
	gen_space_write(sp, dir, "ops_values.xplane.pb");
}

/* One allocator event (MemoryAllocation, or MemoryDeallocation when FREE); a negative value: no stat. */
struct mem_ev {
	int free;
	int64_t t_us;
	const char *allocator;	/* NULL: index_on_host instead, when >= 0 */
	int64_t index, addr, bytes, requested, allocated, reserved, available, peak;
	double frag;		/* < 0: none */
	const char *op, *shape, *region;
	int64_t dtype;		/* 0: none */
};

static void mem_event(struct gen_plane *h, XLine *ln, const struct mem_ev *m)
{
	XEvent *ev = gen_ev_add(h, ln, m->free ? "MemoryDeallocation" : "MemoryAllocation", US(m->t_us), 0);

	if (m->allocator)
		gen_ev_str(h, ev, "allocator_name", m->allocator);
	else if (m->index >= 0)
		gen_ev_i64(h, ev, "index_on_host", m->index);
	if (m->reserved >= 0)
		gen_ev_i64(h, ev, "bytes_reserved", m->reserved);
	if (m->allocated >= 0)
		gen_ev_i64(h, ev, "bytes_allocated", m->allocated);
	if (m->available >= 0)
		gen_ev_i64(h, ev, "bytes_available", m->available);
	if (m->frag >= 0)
		gen_ev_f64(h, ev, "fragmentation", m->frag);
	if (m->peak >= 0)
		gen_ev_i64(h, ev, "peak_bytes_in_use", m->peak);
	if (m->requested >= 0)
		gen_ev_i64(h, ev, "requested_bytes", m->requested);
	if (m->bytes >= 0)
		gen_ev_i64(h, ev, "allocation_bytes", m->bytes);
	if (m->addr >= 0)
		gen_ev_u64(h, ev, "addr", (uint64_t)m->addr);
	if (m->op)
		gen_ev_str(h, ev, "tf_op", m->op);
	if (m->dtype)
		gen_ev_i64(h, ev, "data_type", m->dtype);
	if (m->shape)
		gen_ev_str(h, ev, "shape", m->shape);
	if (m->region)
		gen_ev_str(h, ev, "region_type", m->region);
}

/*
 * memory (EXPECTED.md section 21): allocator GPU_0_bfc over two host
 * threads with 150 bytes allocated before the profile, a TPU-style memory
 * named by index_on_host, an allocator whose name needs quoting, an event
 * naming no memory, and unrelated host events.
 */
static void synth_memory(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane h = gen_plane_add(sp, 1, "/host:CPU", 1000);
	XLine *t1 = gen_line_add(&h, 1, "t1", 1000);
	XLine *t2 = gen_line_add(&h, 2, "t2", 1000);
	static const struct mem_ev t1_ev[] = {
		{0, 1, "GPU_0_bfc", -1, 0x10, 200, 190, 350, 0, 650, 900, 0.1, "op_a", "[50]", "output", 1},
		{1, 3, "GPU_0_bfc", -1, 0x10, 200, 190, 450, 0, 550, 900, 0.3, NULL, NULL, NULL, 0},
		{1, 4, "GPU_0_bfc", -1, 0x9, -1, -1, 350, 0, 650, 900, 0.2, NULL, NULL, NULL, 0},
		{0, 5, "GPU_0_bfc", -1, 0x40, 150, 150, 750, 50, 200, 900, 0.25, "op_d\a", "[2,3]", "temp", 3},
		{0, 7, "GPU_0_bfc", -1, 0x50, 300, 300, 750, 0, 250, 900, 0.1, "op_e", NULL, NULL, 0},
		{1, 9, "GPU_0_bfc", -1, 0x40, 150, 150, 650, 0, 350, 900, 0.1, NULL, NULL, NULL, 0},
		{0, 10, NULL, 1, 0x100, 64, 60, 64, 0, 960, 64, 0, NULL, NULL, NULL, 0},
		{1, 11, NULL, 1, 0x100, -1, -1, -1, -1, -1, -1, -1, NULL, NULL, NULL, 0},
		{0, 12, "odd \"bfc\",x", -1, 0x7, 10, 10, 10, 0, 90, 10, 0, NULL, NULL, NULL, 0},
		{0, 13, NULL, -1, 0x8, 5, 5, 5, 0, 5, 5, 0, NULL, NULL, NULL, 0},
	};
	static const struct mem_ev t2_ev[] = {
		{0, 2, "GPU_0_bfc", -1, 0x20, 300, 300, 650, 0, 350, 900, 0.2, "op_b", "[75]", "output", 14},
		{0, 4, "GPU_0_bfc", -1, 0x30, 250, 240, 600, 50, 350, 900, 0.15, "op_c", NULL, NULL, 0},
		{1, 6, "GPU_0_bfc", -1, 0x20, 300, 300, 450, 50, 500, 900, 0.2, NULL, NULL, NULL, 0},
		{0, 8, "GPU_0_bfc", -1, 0x60, 50, 50, 800, 0, 200, 900, 0.3, "op_f", NULL, NULL, 0},
	};
	size_t i;

	for (i = 0; i < sizeof(t1_ev) / sizeof(t1_ev[0]); i++)
		mem_event(&h, t1, &t1_ev[i]);
	for (i = 0; i < sizeof(t2_ev) / sizeof(t2_ev[0]); i++)
		mem_event(&h, t2, &t2_ev[i]);
	gen_ev_add(&h, t1, "PjitFunction(f)", US(0), US(20));
	gen_space_write(sp, dir, "memory.xplane.pb");
}

/*
 * compile (EXPECTED.md section 22): JAX's PjitFunction calls (a nested
 * duplicate span per call), compiler events inside calls, one beside a
 * call on another thread, one in no call and one between two calls that
 * do not nest, a recompile, and passes nested in a compile event.
 */
static void synth_compile(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane h = gen_plane_add(sp, 1, "/host:CPU", 1000);
	XLine *mn = gen_line_add(&h, 1, "main", 1000);
	XLine *wk = gen_line_add(&h, 2, "worker", 1000);
	XLine *t3 = gen_line_add(&h, 3, "t3", 1000);
	static const struct {
		int line;
		const char *name;
		int64_t start_us, dur_us;
	} e[] = {
		{1, "PjitFunction(f)", 0, 100}, {1, "PjitFunction(f)", 1, 98},
		{1, "trace_to_jaxpr_dynamic", 2, 10}, {1, "PjitFunction(g)", 3, 6},
		{1, "trace_to_jaxpr_dynamic", 4, 3}, {1, "lower_sharding_computation", 15, 20},
		{1, "backend_compile", 40, 50}, {1, "GpuCompiler::RunBackend", 45, 40},
		{1, "pass-a", 50, 10}, {1, "pass-b", 60, 15}, {1, "load", 86, 2},
		{1, "PjitFunction(f)", 200, 10}, {1, "PjitFunction(f)", 300, 14},
		{1, "PjitFunction(f)", 400, 60}, {1, "backend_compile", 410, 40},
		{1, "PjitFunction(g)", 500, 4}, {1, "PjitFunction(k)", 710, 50},
		{2, "backend_compile", 205, 3}, {2, "PjRtClient::Compile", 600, 20},
		{2, "trace_to_jaxpr_dynamic", 720, 5}, {2, "np.asarray", 730, 1},
		{3, "PjitFunction(h)", 700, 50},
	};
	size_t i;

	for (i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		gen_ev_add(&h, e[i].line == 1 ? mn : e[i].line == 2 ? wk : t3, e[i].name, US(e[i].start_us),
		       US(e[i].dur_us));
	gen_space_write(sp, dir, "compile.xplane.pb");
}

/*
 * Memory edge cases (EXPECTED.md section 21a), each once read differently
 * by the two readers: a host line with events but no memory event before
 * the memory events (the time origin), a second stat metadata entry named
 * bytes_allocated (not the key: not read), and an allocator named like a
 * device index ("index_on_host:0", apart from device 0).
 */
static void synth_memory_edges(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane h = gen_plane_add(sp, 1, "/host:CPU", 1000);
	XLine *py = gen_line_add(&h, 1, "python", 1000);
	XLine *t1 = gen_line_add(&h, 2, "t1", 2000);
	static const struct mem_ev ev[] = {
		{0, 5, "GPU_0_bfc", -1, 0x10, 100, 100, 100, 0, 900, 100, 0.1, "op", "[1]", "output", 1},
		{1, 6, "GPU_0_bfc", -1, 0x10, -1, -1, 0, 0, 1000, 100, 0.1, NULL, NULL, NULL, 0},
		{0, 7, "index_on_host:0", -1, 0x20, 10, 10, 10, 0, 90, 10, -1, NULL, NULL, NULL, 0},
		{0, 8, NULL, 0, 0x30, 20, 20, 20, 0, 80, 20, -1, NULL, NULL, NULL, 0},
	};
	XEvent *x;
	size_t i;

	gen_ev_add(&h, py, "some_python_fn", US(0), US(1));
	for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		mem_event(&h, t1, &ev[i]);
	/* a second stat metadata also named bytes_allocated, on an event of its own */
	gen_stat_md_add(&h, 1000, "bytes_allocated");
	x = gen_ev_add(&h, t1, "MemoryAllocation", US(9), 0);
	gen_ev_str(&h, x, "allocator_name", "dup");
	gen_ev_i64(&h, x, "bytes_allocated", 10);
	x = gen_ev_add(&h, t1, "MemoryAllocation", US(10), 0);
	gen_ev_str(&h, x, "allocator_name", "dup");
	gen_event_i64(x, 1000, 500);
	gen_space_write(sp, dir, "memory_edges.xplane.pb");
}

/*
 * compile (section 22a): an unattributed trace on a worker [100, 200] µs
 * holding a trace [150, 160] that the call f [140, 170] on main takes
 * beside it: not nested in its phase for f (the outer one belongs to no
 * call), so f's trace is 10 µs.
 */
static void synth_compile_nested(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane h = gen_plane_add(sp, 1, "/host:CPU", 1000);
	XLine *mn = gen_line_add(&h, 1, "main", 1000);
	XLine *wk = gen_line_add(&h, 2, "worker", 1000);

	gen_ev_add(&h, wk, "trace_to_jaxpr_dynamic", US(100), US(100));
	gen_ev_add(&h, wk, "trace_to_jaxpr_dynamic", US(150), US(10));
	gen_ev_add(&h, mn, "PjitFunction(f)", US(140), US(30));
	gen_ev_add(&h, mn, "PjitFunction(f)", US(300), US(30));
	gen_space_write(sp, dir, "compile_nested.xplane.pb");
}

/*
 * compile by program (EXPECTED.md section 22b): calls of f named by a
 * launch's correlation id (the GPU kernel's program), by a launch's own
 * program_id on another line, by an enqueue's run_id (the TPU module's
 * fingerprint); the call's own line before the others, another function's
 * kernel ignored, two programs in one call ambiguous, a module name JAX
 * sanitised ("<lambda>" -> jit__lambda_).
 */
static void synth_compile_programs(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane h = gen_plane_add(sp, 1, "/host:CPU", 1000);
	XLine *mn = gen_line_add(&h, 1, "main", 1000);
	XLine *la = gen_line_add(&h, 2, "launch", 1000);
	struct gen_plane g = gen_plane_add(sp, 2, "/device:GPU:0", 1000);
	XLine *st = gen_line_add(&g, 1, "Stream #1(Kernel)", 1000);
	struct gen_plane tp = gen_plane_add(sp, 3, "/device:TPU:0", 1000);
	XLine *mods = gen_line_add(&tp, 1, "XLA Modules", 1000);
	static const struct {
		const char *name;
		int64_t start_us, dur_us;
	} calls[] = {
		{"PjitFunction(f)", 0, 100}, {"PjitFunction(f)", 1, 98}, {"PjitFunction(f)", 200, 10},
		{"PjitFunction(f)", 201, 8}, {"PjitFunction(f)", 300, 30}, {"PjitFunction(f)", 400, 60},
		{"PjitFunction(f)", 500, 20}, {"PjitFunction(f)", 600, 40}, {"PjitFunction(<lambda>)", 700, 20},
	};
	/* launches on main by correlation id, and the kernel each one ran */
	static const struct {
		int64_t start_us;
		int64_t corr;
		const char *module;
		int64_t program;
	} launches[] = {
		{10, 1, "jit_f", 7}, {305, 2, "jit_f", 7}, {410, 3, "jit_g", 11}, {605, 4, "jit_f", 7},
		{610, 5, "jit_f", 9}, {705, 6, "jit__lambda_", 13}, {800, 7, "jit_f", 7},
	};
	XEvent *x;
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		gen_ev_add(&h, mn, calls[i].name, US(calls[i].start_us), US(calls[i].dur_us));
	for (i = 0; i < sizeof(launches) / sizeof(launches[0]); i++) {
		x = gen_ev_add(&h, mn, "cuLaunchKernel", US(launches[i].start_us), US(2));
		gen_ev_i64(&h, x, "correlation_id", launches[i].corr);
		x = gen_ev_add(&g, st, "kernel", US(launches[i].start_us + 3), US(1));
		gen_ev_i64(&g, x, "correlation_id", launches[i].corr);
		gen_ev_str(&g, x, "hlo_module", launches[i].module);
		gen_ev_i64(&g, x, "program_id", launches[i].program);
	}
	/* ROCm-like launches naming their program themselves, on another line */
	x = gen_ev_add(&h, la, "hipModuleLaunchKernel", US(205), US(2));
	gen_ev_i64(&h, x, "program_id", 9);
	gen_ev_str(&h, x, "hlo_module", "jit_f");
	x = gen_ev_add(&h, la, "hipModuleLaunchKernel", US(310), US(2));
	gen_ev_i64(&h, x, "program_id", 9);
	gen_ev_str(&h, x, "hlo_module", "jit_f");
	/* a TPU-like enqueue and the module execution of its run */
	x = gen_ev_add(&h, mn, "DoEnqueueProgram", US(505), US(3));
	gen_ev_i64(&h, x, "run_id", 5);
	x = gen_ev_add(&tp, mods, "jit_f(9)", US(509), US(5));
	gen_ev_i64(&tp, x, "run_id", 5);
	x = gen_ev_add(&tp, mods, "jit_f(7)", US(520), US(5));
	gen_ev_i64(&tp, x, "run_id", 6);
	gen_space_write(sp, dir, "compile_programs.xplane.pb");
}

/*
 * compile by program on TPU (EXPECTED.md section 22c): enqueues naming a
 * run id, which counts per device, found on the device their
 * device_ordinal names (any device without one); an enqueue on a worker
 * thread not asked; fingerprints of 20 digits, and one past 2^64.
 */
static void synth_compile_programs_tpu(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane h = gen_plane_add(sp, 1, "/host:CPU", 1000);
	XLine *mn = gen_line_add(&h, 1, "main", 1000);
	XLine *wk = gen_line_add(&h, 2, "worker", 1000);
	struct gen_plane d0 = gen_plane_add(sp, 2, "/device:TPU:0", 1000);
	struct gen_plane d1 = gen_plane_add(sp, 3, "/device:TPU:1", 1000);
	XLine *m0 = gen_line_add(&d0, 1, "XLA Modules", 1000);
	XLine *m1 = gen_line_add(&d1, 1, "XLA Modules", 1000);
	static const struct {
		int64_t start_us, dur_us;
		int worker;		/* the enqueue on the worker line */
		int64_t run, ordinal;	/* ordinal -1: none given */
	} calls[] = {
		{0, 50, 0, 1, 0}, {100, 10, 0, 1, 1}, {200, 30, 1, 2, 0},
		{300, 20, 0, 3, -1}, {400, 5, 0, 4, 0}, {500, 40, 0, 5, 0},
	};
	/* each device's modules by run id */
	static const struct {
		int device;
		int64_t run;
		const char *name;
	} mods[] = {
		{0, 1, "jit_f(7)"}, {1, 1, "jit_f(9)"}, {0, 2, "jit_f(9)"}, {0, 3, "jit_f(7)"}, {1, 3, "jit_f(7)"},
		{0, 4, "jit_f(18446744073709551615)"}, {0, 5, "jit_f(18446744073709551616)"},
	};
	XEvent *x;
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		gen_ev_add(&h, mn, "PjitFunction(f)", US(calls[i].start_us), US(calls[i].dur_us));
		x = gen_ev_add(&h, calls[i].worker ? wk : mn, "DoEnqueueProgram", US(calls[i].start_us + 1), US(1));
		gen_ev_i64(&h, x, "run_id", calls[i].run);
		if (calls[i].ordinal >= 0)
			gen_ev_i64(&h, x, "device_ordinal", calls[i].ordinal);
	}
	for (i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		struct gen_plane *d = mods[i].device ? &d1 : &d0;

		x = gen_ev_add(d, mods[i].device ? m1 : m0, mods[i].name, US(100 * mods[i].run), US(3));
		gen_ev_i64(d, x, "run_id", mods[i].run);
	}
	gen_space_write(sp, dir, "compile_programs_tpu.xplane.pb");
}

/*
 * export (EXPECTED.md section 23): a line whose events nest, overlap
 * partially (an extra track), start together, last no time and come out of
 * order in the file; a display name, every stat type (bytes, a ref, a
 * metadata stat the event's own repeats), names with invalid UTF-8, quotes,
 * a control character and markup; a host thread, a custom plane and a
 * plane without events.
 */
static void synth_export(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 0, "/device:GPU:0", 1000);
	struct gen_plane g1 = gen_plane_add(sp, 1, "/device:GPU:1", 1000);
	struct gen_plane h = gen_plane_add(sp, 1, "/host:CPU", 1000);
	struct gen_plane c = gen_plane_add(sp, 5, "/custom:foo", 1000);
	XLine *st = gen_line_add(&g, 7, "Stream #7", 1000);
	XLine *py = gen_line_add(&h, 3, "python", 1000);
	XLine *cl = gen_line_add(&c, 1, "things", 1000);
	XEvent *a, *b;
	XStat *x;

	(void)g1;
	gen_ev_add(&g, st, "after", US(10), US(2));
	a = gen_ev_add(&g, st, "outer long name(123)", 0, US(10));
	gen_ev_add(&g, st, "cross\"q\"", US(8) + 123, US(6));
	b = gen_ev_add(&g, st, "inner\xff\xfe bad", US(2), US(3));
	gen_ev_add(&g, st, "</svg><script>alert(1)</script>", 0, US(4));
	gen_ev_add(&g, st, "mark\ttab", US(5), 0);
	gen_event_md(&g, "outer long name(123)")->display_name = xstrdup("outer");
	gen_ev_i64(&g, a, "i", -5);
	gen_ev_u64(&g, a, "u", UINT64_MAX);
	gen_ev_f64(&g, a, "d", 0.5);
	gen_ev_str(&g, a, "s", "q\"b\\c\x01");
	gen_ev_ref(&g, a, "r", "ref target");
	x = gen_stat_new(&g, &a->n_stats, &a->stats, "raw");
	x->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_BYTES_VALUE;
	x->bytes_value.len = 3;
	x->bytes_value.data = gen_alloc(3);
	memcpy(x->bytes_value.data, "\x00\xab\x10", 3);
	gen_ev_i64(&g, a, "flops", 7);
	gen_md_i64(&g, "outer long name(123)", "flops", 1000);
	gen_md_str(&g, "outer long name(123)", "src", "a.py:1");
	gen_ev_str(&g, b, "s", "x\xc3(y");
	gen_ev_add(&h, py, "host", US(1), US(2));
	gen_ev_add(&c, cl, "thing", US(3), 500);
	gen_space_write(sp, dir, "export.xplane.pb");
}

/*
 * export's edges (EXPECTED.md section 23a): two lines with one id, a line
 * id past 2^30, a plane based before 0 (the origin -0.999 ns), and a line of
 * 70,070 events (pieces of 65,536 events, one going on into the next line).
 */
static void synth_export_edges(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 2, "/device:GPU:2", -1);
	XLine *w1 = gen_line_add(&g, 5, "worker", -1);
	XLine *w2 = gen_line_add(&g, 5, "worker", -1);
	XLine *big = gen_line_add(&g, (int64_t)1 << 31, "big id", -1);
	XLine *many = gen_line_add(&g, 9, "many", -1);
	XLine *sh = gen_line_add(&g, 10, "short", -1);
	int i;

	gen_ev_add(&g, w1, "a", 1, US(10));
	gen_ev_add(&g, w2, "b", US(5), US(10));
	gen_ev_add(&g, big, "c", 1, US(1));
	for (i = 0; i < 70000; i++) {
		gen_ev_add(&g, many, i % 2 ? "odd" : "even", (int64_t)i * 10000 + 1, 5000);
		if (i % 1000 == 0)
			gen_ev_add(&g, many, "parent", (int64_t)i * 10000 + 1, 8000);
	}
	for (i = 0; i < 3; i++)
		gen_ev_add(&g, sh, "s", (int64_t)i * 1000 + 1, 500);
	gen_space_write(sp, dir, "export_edges.xplane.pb");
}

/*
 * export's pieces cut by weight (tests/unit/test_export): events of a
 * metadata with 14 stats, each with 1 of its own, weigh 16: a piece holds
 * 262,144 / 16 = 16,384 of them. Line "XLA Ops" has 20,000 in start order,
 * line "unsorted" 20,000 in reverse order: pieces of 16,384, then 3,616 and
 * the first 12,768 of the second line, then its last 7,232.
 */
static void synth_export_heavy(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:TPU:0", -1);
	XLine *ops = gen_line_add(&g, 1, "XLA Ops", -1);
	XLine *rev = gen_line_add(&g, 2, "unsorted", -1);
	char name[16];
	int i;

	for (i = 0; i < 14; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		gen_md_i64(&g, "fusion", name, i);
	}
	for (i = 0; i < 20000; i++)
		gen_ev_i64(&g, gen_ev_add(&g, ops, "fusion", (int64_t)i * 1000, 500), "own", i);
	for (i = 20000; i > 0; i--)
		gen_ev_i64(&g, gen_ev_add(&g, rev, "fusion", (int64_t)i * 1000, 500), "own", i);
	gen_space_write(sp, dir, "export_heavy.xplane.pb");
}

/*
 * report (tests/report, tests/cli/report): markup, quotes and invalid UTF-8
 * in every name the page shows (device, function, kernel, op, category), a
 * 1,200-character kernel and function name, an autotune candidate with such
 * a name; flops and bytes for the roofline.
 */
#define HOSTILE "\"'><b>&amp;</b></svg></title><script>alert(1)</script><img src=x>\xff"
static void synth_report_hostile(const char *dir)
{
	XSpace *sp = gen_space_new(NULL);
	struct gen_plane g = gen_plane_add(sp, 1, "/device:GPU:0 " HOSTILE, 1000);
	XLine *st = gen_line_add(&g, 1, "Stream #1(Kernel)", 1000);
	XEvent *ev;
	char longname[1201];
	int i;

	for (i = 0; i < 1200; i++)
		longname[i] = (char)('a' + i % 26);
	longname[1200] = '\0';
	ev = kernel(&g, st, "kern" HOSTILE, "jit_fn" HOSTILE, 5, US(0), US(10));
	gen_ev_str(&g, ev, "hlo_op", "op" HOSTILE);
	gen_ev_str(&g, ev, "hlo_category", "cat" HOSTILE);
	gen_ev_i64(&g, ev, "flops", 1000000);
	gen_ev_i64(&g, ev, "bytes_accessed", 1000);
	ev = kernel(&g, st, longname, longname, 6, US(20), US(10));
	gen_ev_str(&g, ev, "hlo_op", longname);
	kernel(&g, st, "k", "jit_autotune_fn_1" HOSTILE, 7, US(40), US(10));
	kernel(&g, st, "k", "jit_autotune_fn_2", 8, US(60), US(12));
	gen_space_write(sp, dir, "report_hostile.xplane.pb");
}

/* Scenarios written twice, once each way. */
static void synth_gpu_no_host(const char *dir)
{
	gpu_host_links(dir, 0);
}

static void synth_gpu_host_partial(const char *dir)
{
	gpu_host_links(dir, 1);
}

static void synth_gpu_old_layout(const char *dir)
{
	gpu_old_layout(dir, 1);
}

static void synth_gpu_old_layout_nohost(const char *dir)
{
	gpu_old_layout(dir, 0);
}

static void synth_gpu_repeated_ids(const char *dir)
{
	gpu_repeated_ids(dir, 1, "gpu_repeated_ids.xplane.pb");
}

static void synth_gpu_repeated_ids_sparse(const char *dir)
{
	gpu_repeated_ids(dir, 1000000000000ull, "gpu_repeated_ids_sparse.xplane.pb");
}

static const struct gen_scenario scenarios[] = {
	{"tpu_basic", synth_tpu_basic},
	{"tpu_plain_names", synth_tpu_plain_names},
	{"epoch", synth_epoch},
	{"gpu_runs", synth_gpu_runs},
	{"gpu_host", synth_gpu_host},
	{"gpu_host_multi", synth_gpu_host_multi},
	{"autotune", synth_autotune},
	{"compat", synth_compat},
	{"autotune_programs", synth_autotune_programs},
	{"diff", synth_diff},
	{"sessions", synth_sessions},
	{"stragglers", synth_stragglers},
	{"pod", synth_pod},
	{"gpu_launch_configs", synth_gpu_launch_configs},
	{"gpu_other_lines", synth_gpu_other_lines},
	{"tpu_two_module_lines", synth_tpu_two_module_lines},
	{"tpu_plane_twice", synth_tpu_plane_twice},
	{"odd_stats", synth_odd_stats},
	{"gpu_no_host", synth_gpu_no_host},
	{"gpu_host_partial", synth_gpu_host_partial},
	{"gpu_old_layout", synth_gpu_old_layout},
	{"gpu_old_layout_nohost", synth_gpu_old_layout_nohost},
	{"gpu_repeated_ids", synth_gpu_repeated_ids},
	{"gpu_repeated_ids_sparse", synth_gpu_repeated_ids_sparse},
	{"gpu_link_edges", synth_gpu_link_edges},
	{"gpu_runs_mlp", synth_gpu_runs_mlp},
	{"tpu_stray_end", synth_tpu_stray_end},
	{"gpu_kernels", synth_gpu_kernels},
	{"gpu_stray_end", synth_gpu_stray_end},
	{"overview", synth_overview},
	{"launch_queue", synth_launch_queue},
	{"launch_queue_unsorted", synth_launch_queue_unsorted},
	{"ops", synth_ops},
	{"ops_values", synth_ops_values},
	{"ops_hlo", synth_ops_hlo},
	{"ops_hlo_hostile", synth_ops_hlo_hostile},
	{"memory", synth_memory},
	{"compile", synth_compile},
	{"memory_edges", synth_memory_edges},
	{"compile_nested", synth_compile_nested},
	{"compile_programs", synth_compile_programs},
	{"compile_programs_tpu", synth_compile_programs_tpu},
	{"export", synth_export},
	{"export_edges", synth_export_edges},
	{"export_heavy", synth_export_heavy},
	{"report_hostile", synth_report_hostile},
	{"scope_ranges", synth_scope_ranges},
	{"steps_tpu", synth_steps_tpu},
	{"steps_host", synth_steps_host},
	{"steps_devices", synth_steps_devices},
	{"aggregated", synth_aggregated},
	{"counters", synth_counters},
	{"cpu", synth_cpu},
};

int main(int argc, char **argv)
{
	return gen_run(argc, argv, scenarios, sizeof(scenarios) / sizeof(scenarios[0]));
}
