/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_cap - write synthetic capture record files and the XSpace files the
 * converter makes of them, for the CLI tests (tests/cli/capture/). The
 * answers are worked out by hand in tests/capture/EXPECTED.md.
 *
 * Usage: gen_cap OUTDIR
 *
 * The records go through the real writer, reader and converter, exactly as
 * 'xplane-stat capture' uses them; only CUPTI is left out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cap_file.h"
#include "cap_h100.h"
#include "cap_write.h"
#include "cap_xspace.h"

#define GEN_NAME "gen_cap"
#include "gen_common.h"

#define T0 5000000ull			/* CUPTI ns at capture start */
#define WALL0 1700000000000000000ull	/* the wall clock then */

static const char *outdir;

struct gen {
	struct cap_writer w;
	int fd;
	char path[4096];
	uint32_t corr;		/* the last correlation id handed out */
	uint32_t marker;	/* the last NVTX marker id */
};

static void gen_open(struct gen *g, const char *name, uint32_t pid, uint32_t flags)
{
	struct cap_header h = {.pid = pid, .flags = flags, .cupti_version = 130001,
			       .start_wall_ns = WALL0, .start_ts = T0};
	struct cap_device d = cap_h100(0);

	/* the exact memory figures the synthetic captures have always carried */
	d.mem_size = 85520809984ull;
	d.mem_bandwidth = 3352320000000ull;
	memset(g, 0, sizeof(*g));
	snprintf(g->path, sizeof(g->path), "%s/%s", outdir, name);
	g->fd = open(g->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (g->fd < 0)
		die("cannot create '%s': %s", g->path, strerror(errno));
	check(cap_writer_open(&g->w, g->fd, &h), "open");
	check(cap_writer_device(&g->w, &d), "device");
}

/* An NVTX range on thread tid, [start, end] ns after T0. */
static void range(struct gen *g, uint32_t tid, uint64_t start, uint64_t end, const char *name)
{
	struct cap_marker s = {.ts = T0 + start, .id = ++g->marker, .flags = CAP_MARK_START,
			       .thread = tid, .name = name, .domain = "TSL"};
	struct cap_marker e = {.ts = T0 + end, .id = g->marker, .flags = CAP_MARK_END, .thread = tid};

	check(cap_writer_marker(&g->w, &s), "marker");
	check(cap_writer_marker(&g->w, &e), "marker");
}

/* A cuLaunchKernel at host time `at` on thread tid and the kernel it ran, [start, end] after T0. */
static void launch(struct gen *g, uint32_t tid, uint64_t at, const char *name, uint32_t stream,
		   uint64_t start, uint64_t end)
{
	struct cap_api a = {.start = T0 + at, .end = T0 + at + 5, .thread = tid, .correlation = ++g->corr,
			    .cbid = 307, .name = "cuLaunchKernel"};
	struct cap_kernel k = {.start = T0 + start, .end = T0 + end, .device = 0, .context = 1,
			       .stream = stream, .correlation = g->corr, .name = name,
			       .grid = {108, 1, 1}, .block = {128, 1, 1}, .regs = 32};

	check(cap_writer_api(&g->w, &a), "api");
	check(cap_writer_kernel(&g->w, &k), "kernel");
}

static void gen_close(struct gen *g, int complete)
{
	struct cap_trailer t = {.end_ts = T0 + 10000000, .end_wall_ns = WALL0 + 10000000};

	if (complete)
		check(cap_writer_finish(&g->w, &t), "finish");
	else
		check(cap_writer_flush(&g->w), "flush");
	cap_writer_release(&g->w);
	close(g->fd);
}

/* Reads the record files back and writes their XSpace to OUTDIR/name. */
static void convert(const char *name, const char *const *recs, size_t n)
{
	struct cap_file files[4];
	const struct cap_file *fs[4];
	struct cap_convert_opts o = {.hostname = "synth"};
	struct cap_summary sum;
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	unsigned char *buf;
	size_t len, i;
	char path[4096];
	FILE *f;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", outdir, recs[i]);
		if (cap_file_load(path, &files[i], &err))
			die("%s", err.msg);
		fs[i] = &files[i];
	}
	if (cap_xspace(fs, n, &o, &buf, &len, &sum, &notes, &err))
		die("%s", err.msg);
	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die("cannot write '%s'", path);
	for (i = 0; i < n; i++)
		cap_file_release(&files[i]);
	xp_notes_release(&notes);
	free(buf);
}

/*
 * xla: two executions of jit_f (program 3) and one of jit_g (program 4),
 * launched from thread 7 inside their XlaModule ranges; a stray kernel
 * outside any range; a copy inside jit_f's first execution.
 */
static void gen_xla(void)
{
	struct gen g;
	struct cap_api copy_call = {.start = T0 + 1700, .end = T0 + 1750, .thread = 7, .correlation = 100,
				    .cbid = 279, .name = "cuMemcpyHtoDAsync_v2"};
	struct cap_memcpy copy = {.start = T0 + 15600, .end = T0 + 16600, .bytes = 1048576, .device = 0,
				  .context = 1, .stream = 9, .correlation = 100, .kind = CAP_COPY_H2D,
				  .src_kind = CAP_MEM_PINNED, .dst_kind = CAP_MEM_DEVICE, .async = 1};

	gen_open(&g, "xla.xpscap", 4242, CAP_F_NVTX);
	range(&g, 7, 1000, 2000, "XlaModule:#hlo_module=jit_f,program_id=3#");
	range(&g, 7, 1100, 1300, "Thunk:#hlo_op=fusion.1#");
	range(&g, 7, 1400, 1600, "Thunk:#hlo_op=dot.2#");
	range(&g, 7, 3000, 4000, "XlaModule:#hlo_module=jit_f,program_id=3#");
	range(&g, 7, 3100, 3300, "Thunk:#hlo_op=fusion.1#");
	range(&g, 7, 5000, 6000, "XlaModule:#hlo_module=jit_g,program_id=4#");
	launch(&g, 7, 1150, "fusion_1", 7, 10000, 12000);
	launch(&g, 7, 1450, "dot", 7, 12500, 15500);
	check(cap_writer_api(&g.w, &copy_call), "api");
	check(cap_writer_memcpy(&g.w, &copy), "memcpy");
	launch(&g, 7, 3150, "fusion_1", 7, 20000, 22000);
	launch(&g, 7, 5100, "g_kernel", 8, 30000, 31000);
	launch(&g, 7, 7000, "stray", 7, 40000, 40500);
	gen_close(&g, 1);
	convert("xla.xplane.pb", (const char *const[]){"xla.xpscap"}, 1);
}

/*
 * autotune: candidates jit_autotune_fn_0..2 (programs 10..12), each run five
 * times in a row; each execution is two kernels whose busy time is given
 * below (the second kernel is always 2 us, 500 ns after the first).
 */
static void gen_autotune(void)
{
	static const uint64_t busy_us[3][5] = {
		{10, 11, 12, 13, 14},
		{20, 20, 20, 20, 20},
		{5, 6, 7, 8, 100},
	};
	struct gen g;
	uint64_t t = 1000;
	int i, r;

	gen_open(&g, "autotune.xpscap", 5151, CAP_F_NVTX);
	for (i = 0; i < 3; i++) {
		for (r = 0; r < 5; r++) {
			char name[96];
			uint64_t first = (busy_us[i][r] - 2) * 1000;

			snprintf(name, sizeof(name), "XlaModule:#hlo_module=jit_autotune_fn_%d,program_id=%d#",
				 i, 10 + i);
			range(&g, 11, t, t + 100, name);
			launch(&g, 11, t + 10, "cand_main", 7, t + 1000, t + 1000 + first);
			launch(&g, 11, t + 20, "cand_epilogue", 7, t + 1500 + first, t + 3500 + first);
			t += 200000;
		}
	}
	gen_close(&g, 1);
	convert("autotune.xplane.pb", (const char *const[]){"autotune.xpscap"}, 1);
}

/*
 * two processes: pid 20 ran jit_f once (3 us); pid 10 ran it once (4 us) and
 * was killed (no trailer), with its range still open.
 */
static void gen_two(void)
{
	struct gen g;

	gen_open(&g, "two_a.xpscap", 20, CAP_F_NVTX);
	range(&g, 1, 100, 200, "XlaModule:#hlo_module=jit_f,program_id=3#");
	launch(&g, 1, 150, "fusion_1", 7, 1000, 4000);
	gen_close(&g, 1);
	gen_open(&g, "two_b.xpscap", 10, CAP_F_NVTX);
	{
		struct cap_marker s = {.ts = T0 + 100, .id = 1, .flags = CAP_MARK_START, .thread = 1,
				       .name = "XlaModule:#hlo_module=jit_f,program_id=3#", .domain = "TSL"};

		check(cap_writer_marker(&g.w, &s), "marker");
	}
	launch(&g, 1, 150, "fusion_1", 7, 1000, 5000);
	gen_close(&g, 0);
	convert("two.xplane.pb", (const char *const[]){"two_a.xpscap", "two_b.xpscap"}, 2);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		die("usage: gen_cap OUTDIR");
	outdir = argv[1];
	if (mkdir(outdir, 0755) && errno != EEXIST)
		die("cannot create '%s': %s", outdir, strerror(errno));
	gen_xla();
	gen_autotune();
	gen_two();
	return 0;
}
