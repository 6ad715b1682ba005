/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Capture records to XSpace: the layout field by field (decoded with
 * protobuf-c), the NVTX join, several processes, partial files; then the
 * same bytes through our reader and the execution finder, with the numbers
 * worked out by hand below.
 */
#include <stdlib.h>

#include "an_exec.h"
#include "an_functions.h"
#include "cap_xspace.h"
#include "test.h"
#include "../capture/cap_h100.h"
#include "xplane_pb.h"

#define T0 1000000ull			/* CUPTI ns at capture start */
#define WALL0 1700000000000000000ll	/* the wall clock then */

/*
 * One process (pid 100), device 0, thread 7. Times in ns after T0.
 *
 * NVTX ranges on thread 7 (domain TSL):
 *   R1 XlaModule:#hlo_module=jit_f,program_id=3#  [1000, 2000]
 *      R1a Thunk:#hlo_op=fusion.1#   [1100, 1300]
 *      R1b Thunk:#hlo_op=dot.2#      [1400, 1600]
 *   R2 XlaModule:#hlo_module=jit_f,program_id=3#  [3000, 4000]
 *      R2a Thunk:#hlo_op=fusion.1#   [3100, 3300]
 *   R3 XlaModule:#hlo_module=jit_g,program_id=4#  [5000, 6000]
 * Driver calls on thread 7 (correlation: start): 1: 1150, 2: 1450, 3: 3150,
 *   4: 5100, 5: 7000, 6: 1700 (a copy).
 * Device work (correlation, stream, [start, end]):
 *   k1 fusion_1 (1, 7, [10000, 12000])   -> jit_f/3, hlo_op fusion.1
 *   k2 dot      (2, 7, [12500, 15500])   -> jit_f/3, hlo_op dot.2
 *   copy H2D    (6, 9, [15600, 16600])   -> jit_f/3, no hlo_op
 *   k3 fusion_1 (3, 7, [20000, 22000])   -> jit_f/3 (second execution)
 *   k4 g_kernel (4, 8, [30000, 31000])   -> jit_g/4
 *   k5 stray    (5, 7, [40000, 40500])   -> no range: no function
 *   memset      (7, 7, [41000, 41100])   -> no driver call recorded
 *   k6 with no timestamps (start 0)      -> skipped
 */
static struct cap_device dev0;	/* cap_h100(0), set by main */

static struct cap_kernel kernels[] = {
	{.start = T0 + 10000, .end = T0 + 12000, .device = 0, .context = 1, .stream = 7, .correlation = 1,
	 .name = "fusion_1", .grid = {10, 1, 1}, .block = {128, 1, 1}},
	{.start = T0 + 12500, .end = T0 + 15500, .device = 0, .context = 1, .stream = 7, .correlation = 2,
	 .name = "_Z3dotPKfS0_Pf", .demangled = "dot(float const*, float const*, float*)",
	 .grid = {64, 2, 1}, .block = {256, 1, 1}, .regs = 40, .static_shmem = 1024, .dynamic_shmem = 2048},
	{.start = T0 + 20000, .end = T0 + 22000, .device = 0, .context = 1, .stream = 7, .correlation = 3,
	 .name = "fusion_1", .grid = {10, 1, 1}, .block = {128, 1, 1}},
	{.start = T0 + 30000, .end = T0 + 31000, .device = 0, .context = 1, .stream = 8, .correlation = 4,
	 .name = "g_kernel", .grid = {1, 1, 1}, .block = {32, 1, 1}, .graph_id = 12, .graph_node_id = 99},
	{.start = T0 + 40000, .end = T0 + 40500, .device = 0, .context = 1, .stream = 7, .correlation = 5,
	 .name = "stray", .grid = {1, 1, 1}, .block = {1, 1, 1}},
	{.start = 0, .end = 0, .device = 0, .context = 1, .stream = 7, .correlation = 8, .name = "lost"},
};

static struct cap_memcpy copies[] = {
	{.start = T0 + 15600, .end = T0 + 16600, .bytes = 1048576, .device = 0, .context = 1, .stream = 9,
	 .correlation = 6, .kind = CAP_COPY_H2D, .src_kind = CAP_MEM_PINNED, .dst_kind = CAP_MEM_DEVICE,
	 .async = 1, .src_device = 0, .dst_device = 0},
};

static struct cap_memset sets[] = {
	{.start = T0 + 41000, .end = T0 + 41100, .bytes = 4096, .device = 0, .context = 1, .stream = 7,
	 .correlation = 7, .mem_kind = CAP_MEM_DEVICE},
};

static struct cap_api apis[] = {
	{.start = T0 + 1150, .end = T0 + 1160, .thread = 7, .correlation = 1, .cbid = 307, .name = "cuLaunchKernel"},
	{.start = T0 + 1450, .end = T0 + 1460, .thread = 7, .correlation = 2, .cbid = 307, .name = "cuLaunchKernel"},
	{.start = T0 + 3150, .end = T0 + 3160, .thread = 7, .correlation = 3, .cbid = 307, .name = "cuLaunchKernel"},
	{.start = T0 + 5100, .end = T0 + 5110, .thread = 7, .correlation = 4, .cbid = 514, .name = "cuGraphLaunch"},
	{.start = T0 + 7000, .end = T0 + 7010, .thread = 7, .correlation = 5, .cbid = 307, .name = "cuLaunchKernel"},
	{.start = T0 + 1700, .end = T0 + 1750, .thread = 7, .correlation = 6, .cbid = 279, .name = NULL},
};

#define START(t, i, n) {.ts = T0 + (t), .id = (i), .flags = CAP_MARK_START, .thread = 7, .name = (n), .domain = "TSL"}
#define END(t, i) {.ts = T0 + (t), .id = (i), .flags = CAP_MARK_END, .thread = 7}

static struct cap_marker markers[] = {
	START(1000, 1, "XlaModule:#hlo_module=jit_f,program_id=3#"),
	START(1100, 2, "Thunk:#hlo_op=fusion.1#"),
	END(1300, 2),
	START(1400, 3, "Thunk:#hlo_op=dot.2#"),
	END(1600, 3),
	END(2000, 1),
	START(3000, 4, "XlaModule:#hlo_module=jit_f,program_id=3#"),
	START(3100, 5, "Thunk:#hlo_op=fusion.1#"),
	END(3300, 5),
	END(4000, 4),
	START(5000, 6, "XlaModule:#hlo_module=jit_g,program_id=4#"),
	END(6000, 6),
};

static void make_file(struct cap_file *f)
{
	memset(f, 0, sizeof(*f));
	f->header.version = 1;
	f->header.pid = 100;
	f->header.flags = CAP_F_NVTX;
	f->header.start_wall_ns = WALL0;
	f->header.start_ts = T0;
	f->devices = &dev0;
	f->ndevices = 1;
	f->kernels = kernels;
	f->nkernels = sizeof(kernels) / sizeof(kernels[0]);
	f->memcpys = copies;
	f->nmemcpys = 1;
	f->memsets = sets;
	f->nmemsets = 1;
	f->apis = apis;
	f->napis = sizeof(apis) / sizeof(apis[0]);
	f->markers = markers;
	f->nmarkers = sizeof(markers) / sizeof(markers[0]);
	f->complete = 1;
	f->trailer.end_ts = T0 + 50000;
	f->last_ts = T0 + 50000;
}

static const XStat *stat_named(const XPlane *p, XStat **stats, size_t n, const char *name)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < p->n_stat_metadata; j++)
			if (p->stat_metadata[j]->key == stats[i]->metadata_id &&
			    !strcmp(p->stat_metadata[j]->value->name, name))
				return stats[i];
	return NULL;
}

static const char *event_name(const XPlane *p, const XEvent *e)
{
	size_t j;

	for (j = 0; j < p->n_event_metadata; j++)
		if (p->event_metadata[j]->key == e->metadata_id)
			return p->event_metadata[j]->value->name;
	return NULL;
}

static const char *stat_str(const XPlane *p, const XEvent *e, const char *name)
{
	const XStat *s = stat_named(p, e->stats, e->n_stats, name);

	return s && s->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE ? s->str_value : NULL;
}

static long long stat_int(const XPlane *p, XStat **stats, size_t n, const char *name)
{
	const XStat *s = stat_named(p, stats, n, name);

	if (!s)
		return -1;
	if (s->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE)
		return s->int64_value;
	if (s->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE)
		return (long long)s->uint64_value;
	return -2;
}

static const XLine *line_named(const XPlane *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n_lines; i++)
		if (!strcmp(p->lines[i]->name, name))
			return p->lines[i];
	return NULL;
}

static void test_layout(void)
{
	struct cap_file f;
	const struct cap_file *fs[1] = {&f};
	struct cap_convert_opts o = {.hostname = "testhost"};
	struct cap_summary sum;
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	unsigned char *buf;
	size_t len, i;
	XSpace *sp;
	const XPlane *gpu, *cupti, *nvtx;
	const XLine *l7, *l8, *l9;

	make_file(&f);
	CHECK_INT(cap_xspace(fs, 1, &o, &buf, &len, &sum, &notes, &err), 0);
	CHECK_INT(sum.processes, 1);
	CHECK_INT(sum.device_planes, 1);
	CHECK_INT(sum.kernels, 5);	/* k6 left out */
	CHECK_INT(sum.memcpys, 1);
	CHECK_INT(sum.memsets, 1);
	CHECK_INT(sum.api_calls, 6);
	CHECK_INT(sum.nvtx_ranges, 6);
	CHECK_INT(sum.annotated, 5);	/* k1, k2, copy, k3, k4 */
	CHECK_INT(sum.skipped, 1);
	CHECK_INT(sum.partial_files, 0);
	CHECK_INT(notes.n, 2);
	CHECK_STR(notes.msgs[0], "process 100: 1 kernel, 0 copies and 0 memsets without timestamps (still "
		  "running when the process ended, or CUPTI could not time them): left out");
	CHECK(strstr(notes.msgs[1], "process 100: 0 kernels, 0 copies and 1 memset have no launch record") ==
	      notes.msgs[1]);

	sp = tensorflow__profiler__xspace__unpack(NULL, len, buf);
	CHECK(sp != NULL);
	if (!sp)
		return;
	CHECK_INT(sp->n_planes, 3);
	CHECK_INT(sp->n_hostnames, 1);
	CHECK_STR(sp->hostnames[0], "testhost");
	CHECK_INT(sp->n_warnings, 2);
	CHECK_STR(sp->warnings[0], notes.msgs[0]);
	CHECK_STR(sp->warnings[1], notes.msgs[1]);
	gpu = sp->planes[0];
	cupti = sp->planes[1];
	nvtx = sp->planes[2];
	CHECK_STR(gpu->name, "/device:GPU:0");
	CHECK_STR(cupti->name, "/host:CUPTI");
	CHECK_STR(nvtx->name, "/host:NVTX");
	CHECK_INT(gpu->id, 1);
	CHECK_INT(nvtx->id, 3);

	/* plane stats */
	CHECK_STR(stat_named(gpu, gpu->stats, gpu->n_stats, "device_vendor")->str_value, "Nvidia");
	CHECK_STR(stat_named(gpu, gpu->stats, gpu->n_stats, "gpu_device_name")->str_value, "NVIDIA H100 80GB HBM3");
	CHECK_INT(stat_int(gpu, gpu->stats, gpu->n_stats, "clock_rate"), 1980000);
	CHECK_INT(stat_int(gpu, gpu->stats, gpu->n_stats, "core_count"), 132);
	CHECK_INT(stat_int(gpu, gpu->stats, gpu->n_stats, "memory_bandwidth"), 3352000000000ll);
	CHECK_INT(stat_int(gpu, gpu->stats, gpu->n_stats, "memory_size"), 85000000000ll);
	CHECK_INT(stat_int(gpu, gpu->stats, gpu->n_stats, "compute_cap_major"), 9);
	CHECK_INT(stat_int(gpu, gpu->stats, gpu->n_stats, "compute_cap_minor"), 0);

	/* lines: one per stream, types in the fixed order */
	CHECK_INT(gpu->n_lines, 3);
	l7 = line_named(gpu, "Stream #7(Compute,Memset)");
	l8 = line_named(gpu, "Stream #8(Compute)");
	l9 = line_named(gpu, "Stream #9(MemcpyH2D)");
	CHECK(l7 && l8 && l9);
	if (!l7 || !l8 || !l9)
		return;
	CHECK_INT(l7->id, 7);
	for (i = 0; i < gpu->n_lines; i++)
		CHECK_INT(gpu->lines[i]->timestamp_ns, WALL0);
	CHECK_INT(l7->n_events, 5);	/* k1, k2, k3, k5, memset */
	CHECK_STR(event_name(gpu, l7->events[0]), "fusion_1");
	CHECK_INT(l7->events[0]->offset_ps, 10000000);
	CHECK_INT(l7->events[0]->duration_ps, 2000000);
	CHECK_STR(stat_str(gpu, l7->events[0], "kernel_details"),
		  "regs:0 static_shared:0 dynamic_shared:0 grid:10,1,1 block:128,1,1 occ_pct:100");
	CHECK_STR(stat_str(gpu, l7->events[0], "hlo_op"), "fusion.1");
	CHECK_STR(stat_str(gpu, l7->events[0], "hlo_module"), "jit_f");
	CHECK_INT(stat_int(gpu, l7->events[0]->stats, l7->events[0]->n_stats, "program_id"), 3);
	CHECK_INT(stat_int(gpu, l7->events[0]->stats, l7->events[0]->n_stats, "correlation_id"), 1);
	CHECK_INT(stat_int(gpu, l7->events[0]->stats, l7->events[0]->n_stats, "context_id"), 1);

	/* k2: demangled name; 6 blocks fit by registers: 6 * 256 / 2048 threads = 75% */
	CHECK_STR(event_name(gpu, l7->events[1]), "dot(float const*, float const*, float*)");
	CHECK_STR(stat_str(gpu, l7->events[1], "kernel_details"),
		  "regs:40 static_shared:1024 dynamic_shared:2048 grid:64,2,1 block:256,1,1 occ_pct:75");
	CHECK_STR(stat_str(gpu, l7->events[1], "hlo_op"), "dot.2");
	CHECK_INT(l7->events[1]->n_stats, 6);
	/* innermost range first: hlo_op, then the module's keys */
	CHECK_INT(l7->events[1]->stats[3]->metadata_id,
		  stat_named(gpu, l7->events[0]->stats, l7->events[0]->n_stats, "hlo_op")->metadata_id);

	CHECK_STR(stat_str(gpu, l7->events[2], "hlo_op"), "fusion.1");
	CHECK_INT(l7->events[2]->offset_ps, 20000000);
	/* k5: correlated, but in no range; the memset: no driver call at all */
	CHECK_STR(event_name(gpu, l7->events[3]), "stray");
	CHECK(stat_str(gpu, l7->events[3], "hlo_module") == NULL);
	CHECK_INT(l7->events[3]->n_stats, 3);
	CHECK_STR(event_name(gpu, l7->events[4]), "Memset");
	CHECK_STR(stat_str(gpu, l7->events[4], "memset_details"), "kind:device num_bytes:4096 async:0");
	CHECK_INT(l7->events[4]->duration_ps, 100000);

	CHECK_INT(l8->n_events, 1);
	CHECK_STR(stat_str(gpu, l8->events[0], "hlo_module"), "jit_g");
	CHECK(stat_str(gpu, l8->events[0], "hlo_op") == NULL);
	CHECK_INT(stat_int(gpu, l8->events[0]->stats, l8->events[0]->n_stats, "cuda_graph_id"), 12);
	CHECK_INT(stat_int(gpu, l8->events[0]->stats, l8->events[0]->n_stats, "cuda_graph_node_id"), 99);
	CHECK_STR(event_name(gpu, l9->events[0]), "MemcpyH2D");
	CHECK_STR(stat_str(gpu, l9->events[0], "memcpy_details"),
		  "kind_src:pinned kind_dst:device size:1048576 dest:0 async:1");
	CHECK_STR(stat_str(gpu, l9->events[0], "hlo_module"), "jit_f");

	/* the driver calls, by start, with their correlation ids; a call with no name is named by its id */
	CHECK_INT(cupti->n_lines, 1);
	CHECK_STR(cupti->lines[0]->name, "Host Threads/7");
	CHECK_INT(cupti->lines[0]->n_events, 6);
	CHECK_INT(cupti->lines[0]->events[0]->offset_ps, 1150000);
	CHECK_STR(event_name(cupti, cupti->lines[0]->events[2]), "cbid 279");
	CHECK_STR(event_name(cupti, cupti->lines[0]->events[3]), "cuLaunchKernel");
	CHECK_INT(stat_int(cupti, cupti->lines[0]->events[3]->stats, 1, "correlation_id"), 3);

	/* the ranges, outer before inner; modules carry module_name for the execution finder */
	CHECK_INT(nvtx->n_lines, 1);
	CHECK_STR(nvtx->lines[0]->name, "Host Threads/7/NVTX");
	CHECK_INT(nvtx->lines[0]->n_events, 6);
	{
		const XEvent *r1 = nvtx->lines[0]->events[0], *r1a = nvtx->lines[0]->events[1];

		CHECK_STR(event_name(nvtx, r1), "XlaModule:#hlo_module=jit_f,program_id=3#");
		CHECK_INT(r1->offset_ps, 1000000);
		CHECK_INT(r1->duration_ps, 1000000);
		CHECK_STR(stat_str(nvtx, r1, "module_name"), "jit_f");
		CHECK_STR(stat_str(nvtx, r1, "nvtx_domain"), "TSL");
		CHECK_INT(stat_int(nvtx, r1->stats, r1->n_stats, "program_id"), 3);
		CHECK_STR(stat_str(nvtx, r1a, "hlo_op"), "fusion.1");
		CHECK(stat_str(nvtx, r1a, "module_name") == NULL);
	}
	tensorflow__profiler__xspace__free_unpacked(sp, NULL);

	/* our reader and the execution finder: jit_f runs twice (6 us, 2 us), jit_g once (1 us) */
	{
		struct xp_trace *t;
		struct an_exec_list l;
		struct an_exec_opts xo = {0};
		struct an_fn_opts fo = {0};
		struct an_fn_result res;

		CHECK_INT(xp_trace_read(NULL, buf, len, &t, &err), 0);
		CHECK_INT(an_exec_find(t, &xo, &l, &err), 0);
		CHECK_INT(l.ndevices, 1);
		CHECK_INT(l.n, 3);
		CHECK_INT(l.devices[0].busy_ps, 9600000);
		CHECK_INT(l.devices[0].unattributed_events, 2);
		CHECK_INT(l.devices[0].unattributed_busy_ps, 600000);
		for (i = 0; i < l.n; i++)
			CHECK_INT(l.execs[i].split, AN_SPLIT_HOST);
		CHECK_STR(l.execs[0].name, "jit_f");
		CHECK_INT(l.execs[0].program_id, 3);
		CHECK_INT(l.execs[0].busy_ps, 6000000);
		CHECK_INT(l.execs[0].span_ps, 6600000);
		CHECK_INT(l.execs[0].events, 3);
		CHECK_STR(l.execs[1].name, "jit_f");
		CHECK_INT(l.execs[1].busy_ps, 2000000);
		CHECK_STR(l.execs[2].name, "jit_g");
		CHECK_INT(l.execs[2].program_id, 4);
		CHECK_INT(l.execs[2].busy_ps, 1000000);
		an_fn_init(&res, &fo);
		CHECK_INT(an_fn_add(&res, &l, &err), 0);
		CHECK_INT(an_fn_finish(&res, &err), 0);
		CHECK_INT(res.nrows, 2);
		CHECK_STR(res.rows[0].name, "jit_f");
		CHECK_INT(res.rows[0].s.n, 2);
		CHECK_NEAR(res.rows[0].s.total, 8000000, 1e-12);
		CHECK_NEAR(res.rows[0].s.mean, 4000000, 1e-12);
		CHECK_NEAR(res.rows[0].s.std, 2000000, 1e-12);
		CHECK_NEAR(res.rows[0].share, 8.0 / 9.6, 1e-12);
		CHECK_NEAR(res.rows[1].s.total, 1000000, 1e-12);
		an_fn_release(&res);
		an_exec_list_release(&l);
		xp_trace_free(t);
	}
	free(buf);
	xp_notes_release(&notes);
}

/* Two processes, given out of pid order; the second one's file is partial. */
static void test_processes(void)
{
	struct cap_file a, b;
	const struct cap_file *fs[2] = {&b, &a};
	struct cap_summary sum;
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	unsigned char *buf;
	size_t len;
	XSpace *sp;
	struct cap_kernel kb = kernels[0];
	struct cap_marker open_range = START(500, 77, "XlaModule:#hlo_module=jit_h,program_id=9#");
	struct cap_api call = {.start = T0 + 600, .end = T0 + 610, .thread = 7, .correlation = 1,
			       .name = "cuLaunchKernel"};

	make_file(&a);
	memset(&b, 0, sizeof(b));
	b.header.pid = 300;
	b.header.start_wall_ns = WALL0 + 5000;
	b.header.start_ts = T0 + 5000;
	b.kernels = &kb;
	b.nkernels = 1;
	b.apis = &call;
	b.napis = 1;
	b.markers = &open_range;
	b.nmarkers = 1;
	b.complete = 0;
	b.last_ts = T0 + 12000;
	b.dropped = 4;
	CHECK_INT(cap_xspace(fs, 2, NULL, &buf, &len, &sum, &notes, &err), 0);
	CHECK_INT(sum.processes, 2);
	CHECK_INT(sum.partial_files, 1);
	CHECK_INT(sum.dropped, 4);
	CHECK_INT(sum.annotated, 6);
	sp = tensorflow__profiler__xspace__unpack(NULL, len, buf);
	CHECK(sp != NULL);
	if (!sp)
		return;
	CHECK_INT(sp->n_hostnames, 0);
	CHECK_INT(sp->n_planes, 6);
	CHECK_STR(sp->planes[0]->name, "/device:GPU:0 (pid 100)");
	CHECK_STR(sp->planes[3]->name, "/device:GPU:0 (pid 300)");
	CHECK_STR(sp->planes[4]->name, "/host:CUPTI (pid 300)");
	CHECK_STR(sp->planes[5]->name, "/host:NVTX (pid 300)");
	{
		const XPlane *p = sp->planes[3];
		const XEvent *e = p->lines[0]->events[0];

		/* the second process's correlation ids are offset by 1 << 32 */
		CHECK_INT(stat_int(p, e->stats, e->n_stats, "correlation_id"), (1ll << 32) | 1);
		CHECK_STR(stat_str(p, e, "hlo_module"), "jit_h");
		/* its times count from its own start: the kernel began 5000 ns after it */
		CHECK_INT(sp->planes[3]->lines[0]->timestamp_ns, WALL0 + 500);
		CHECK_INT(e->offset_ps, (10000 - 500) * 1000ll);
		/* the range never ended: it lasts to the last record */
		CHECK_INT(sp->planes[5]->lines[0]->events[0]->duration_ps, (12000 - 500) * 1000ll);
	}
	CHECK_INT(sp->n_warnings, 6);
	CHECK_STR(sp->warnings[0], "process 100: 1 kernel, 0 copies and 0 memsets without timestamps (still "
		  "running when the process ended, or CUPTI could not time them): left out");
	/* the memset of correlation 7, whose call was not recorded */
	CHECK_STR(sp->warnings[1], "process 100: 0 kernels, 0 copies and 1 memset have no launch record (CUPTI "
		  "recorded no API call of their correlation id): they carry no thread, launch time or NVTX "
		  "names, so no function is named for them");
	CHECK(strstr(sp->warnings[2], "process 300: its record file has no trailer") == sp->warnings[2]);
	CHECK_STR(sp->warnings[3], "process 300: CUPTI dropped 4 activity records (its buffers were full)");
	CHECK_STR(sp->warnings[4], "process 300: 1 NVTX range had not ended when recording stopped; "
		  "they end at the last record");
	CHECK(strstr(sp->warnings[5], "2 processes recorded GPU work") == sp->warnings[5]);
	CHECK_INT(notes.n, 6);
	tensorflow__profiler__xspace__free_unpacked(sp, NULL);
	free(buf);
	xp_notes_release(&notes);
}

/* Nothing recorded: an empty XSpace; devices known only from device records still get a plane. */
static void test_empty(void)
{
	struct cap_file f;
	const struct cap_file *fs[1] = {&f};
	struct cap_summary sum;
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	struct cap_note note = {.warning = 1, .text = "CUPTI is in use by 'Nsight Systems'"};
	unsigned char *buf;
	size_t len;
	XSpace *sp;

	memset(&f, 0, sizeof(f));
	f.header.pid = 5;
	f.header.start_ts = 77;
	f.header.start_wall_ns = 1234;
	f.complete = 1;
	f.notes = &note;
	f.nnotes = 1;
	CHECK_INT(cap_xspace(fs, 1, NULL, &buf, &len, &sum, &notes, &err), 0);
	CHECK_INT(sum.processes, 0);
	CHECK_INT(sum.device_planes, 0);
	sp = tensorflow__profiler__xspace__unpack(NULL, len, buf);
	CHECK(sp != NULL);
	if (sp) {
		CHECK_INT(sp->n_planes, 0);
		CHECK_INT(sp->n_warnings, 1);
		CHECK_STR(sp->warnings[0], "process 5: CUPTI is in use by 'Nsight Systems'");
		tensorflow__profiler__xspace__free_unpacked(sp, NULL);
	}
	free(buf);
	xp_notes_release(&notes);

	f.devices = &dev0;
	f.ndevices = 1;
	f.nnotes = 0;
	CHECK_INT(cap_xspace(fs, 1, NULL, &buf, &len, &sum, &notes, &err), 0);
	CHECK_INT(sum.device_planes, 1);
	sp = tensorflow__profiler__xspace__unpack(NULL, len, buf);
	CHECK(sp && sp->n_planes == 1 && sp->planes[0]->n_lines == 0);
	if (sp)
		tensorflow__profiler__xspace__free_unpacked(sp, NULL);
	free(buf);
	xp_notes_release(&notes);
}

static void test_occupancy(void)
{
	struct cap_kernel k = {.block = {1024, 1, 1}};

	/* 32 warps a block: 2 blocks by warps = 100% */
	CHECK_NEAR(cap_occupancy_pct(&dev0, &k), 100, 1e-12);
	/* 255 registers: 8160 -> 8192 a warp, 8 warps an SM, none of a 32-warp block fits */
	k.regs = 255;
	CHECK_NEAR(cap_occupancy_pct(&dev0, &k), 0, 1e-12);
	/* 96 threads (3 warps), 100 KB shared: 2 blocks by shared memory: 192 / 2048 threads */
	k.regs = 0;
	k.block[0] = 96;
	k.dynamic_shmem = 100 * 1024;
	CHECK_NEAR(cap_occupancy_pct(&dev0, &k), 9.375, 1e-12);
	/* unknown device */
	CHECK_NEAR(cap_occupancy_pct(NULL, &k), 0, 1e-12);
}

int main(void)
{
	dev0 = cap_h100(0);
	test_layout();
	test_processes();
	test_empty();
	test_occupancy();
	return test_done("test_cap_xspace");
}
