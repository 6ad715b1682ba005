/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_bad - write the crafted bad inputs of the catalogue in RELIABILITY.md
 * (tests/cli/bad/ runs xplane-stat on each).
 *
 * Usage: gen_bad OUTDIR [SCENARIO...]   (default: every scenario)
 *
 * Well-formed traces with odd contents are built with protobuf-c's encoder;
 * malformed ones wrap protobuf-c output in hand-written wire bytes. Every
 * file is byte-for-byte deterministic (no clock; "random" bytes come from a
 * fixed linear congruential generator). Times are picoseconds; the control
 * trace gpu.xplane.pb has two functions on one stream:
 *   jit_train (program 7): kernels [0, 10) and [10, 15) us -> one 15 us run
 *   jit_eval  (program 8): kernel  [20, 24) us             -> one 4 us run
 * and every variant below says what it changes.
 */
#define _POSIX_C_SOURCE 200809L

#include <zlib.h>

#define GEN_NAME "gen_bad"
#include "gen_trace.h"

/* ---- bytes ------------------------------------------------------------------------ */

static void put(struct gen_bytes *b, const void *data, size_t n)
{
	b->p = xrealloc(b->p, b->n + n + 1);
	memcpy(b->p + b->n, data, n);
	b->n += n;
}

static void put_varint(struct gen_bytes *b, uint64_t v)
{
	uint8_t c;

	do {
		c = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		put(b, &c, 1);
		v >>= 7;
	} while (v);
}

/* A length-delimited field: tag, length, then the n bytes at data. */
static void put_len(struct gen_bytes *b, uint32_t field, const void *data, size_t n)
{
	put_varint(b, (uint64_t)field << 3 | 2);
	put_varint(b, n);
	put(b, data, n);
}

/* ---- the control trace and its variants ------------------------------------------- */

/* Every crafted trace names its host. */
static XSpace *space_new(void)
{
	return gen_space_new("bad-host");
}

/* Stat metadata ids of the control trace. */
enum { SM_HLO_MODULE = 1, SM_PROGRAM_ID = 2 };
/* Event metadata ids. */
enum { EM_FUSION = 1, EM_GEMM = 2, EM_REDUCE = 3 };

/* A kernel of function `module` (NULL: none) with program id pid (< 0: none). */
static XEvent *kernel(XLine *l, int64_t meta, int64_t start, int64_t dur, const char *module, int64_t pid)
{
	XEvent *e = gen_event_add(l, meta, start, dur);

	if (module)
		gen_event_str(e, SM_HLO_MODULE, module);
	if (pid >= 0)
		gen_event_i64(e, SM_PROGRAM_ID, pid);
	return e;
}

/* A device plane with the control trace's stat metadata and its first event metadata, fusion_1. */
static struct gen_plane device_plane(XSpace *sp, int64_t id, const char *name)
{
	struct gen_plane p = gen_plane_add(sp, id, name, 0);

	gen_stat_md_add(&p, SM_HLO_MODULE, "hlo_module");
	gen_stat_md_add(&p, SM_PROGRAM_ID, "program_id");
	gen_event_md_add(&p, EM_FUSION, "fusion_1");
	return p;
}

/* The device plane of the control trace, on line timestamp ts_ns; names may be replaced. */
static struct gen_plane gpu_plane(XSpace *sp, const char *train, const char *eval)
{
	struct gen_plane p = device_plane(sp, 1, "/device:GPU:0");
	XLine *l = gen_line_add(&p, 1, "Stream #7(Compute)", 1000);

	gen_event_md_add(&p, EM_GEMM, "gemm_1");
	gen_event_md_add(&p, EM_REDUCE, "reduce_1");
	kernel(l, EM_FUSION, US(0), US(10), train, 7);
	kernel(l, EM_GEMM, US(10), US(5), train, 7);
	kernel(l, EM_REDUCE, US(20), US(4), eval, 8);
	return p;
}

static void bad_control(const char *dir)
{
	XSpace *sp = space_new();

	gpu_plane(sp, "jit_train", "jit_eval");
	gen_space_write(sp, dir, "gpu.xplane.pb");
}

/*
 * The same kernels on two streams, each line's events and the lines
 * themselves in reverse order: the answer must not change.
 */
static void order(const char *dir, int reversed)
{
	/* by line (0: Stream #7, 1: Stream #8), then by start; reversed, from the last */
	static const struct {
		int line;
		int64_t meta, start_us, dur_us;
		const char *module;
		int64_t pid;
	} k[] = {
		{0, EM_FUSION, 0, 10, "jit_train", 7},
		{0, EM_FUSION, 20, 4, "jit_eval", 8},
		{0, EM_FUSION, 30, 6, "jit_train", 7},
		{1, EM_GEMM, 5, 10, "jit_train", 7},
		{1, EM_GEMM, 22, 1, "jit_eval", 8},
		{1, EM_GEMM, 35, 2, "jit_train", 7},
	};
	const size_t n = sizeof(k) / sizeof(k[0]);
	XSpace *sp = space_new();
	struct gen_plane p = device_plane(sp, 1, "/device:GPU:0");
	XLine *l[2];
	size_t i;

	gen_event_md_add(&p, EM_GEMM, "memcpy_1");
	if (!reversed) {
		l[0] = gen_line_add(&p, 1, "Stream #7(Compute)", 1000);
		l[1] = gen_line_add(&p, 2, "Stream #8(Memcpy)", 1000);
	} else {
		l[1] = gen_line_add(&p, 2, "Stream #8(Memcpy)", 1000);
		l[0] = gen_line_add(&p, 1, "Stream #7(Compute)", 1000);
	}
	for (i = 0; i < n; i++) {
		size_t j = reversed ? n - 1 - i : i;

		kernel(l[k[j].line], k[j].meta, US(k[j].start_us), US(k[j].dur_us), k[j].module, k[j].pid);
	}
	gen_space_write(sp, dir, reversed ? "out_of_order.xplane.pb" : "in_order.xplane.pb");
}

/* Negative and overflowing durations, offsets and line timestamps. */
static void bad_times(const char *dir)
{
	XSpace *sp;
	struct gen_plane p;
	XLine *l;

	/* jit_eval's kernel lasts -4 us. */
	sp = space_new();
	p = gpu_plane(sp, "jit_train", "jit_eval");
	p.xp->lines[0]->events[2]->duration_ps = -US(4);
	gen_space_write(sp, dir, "negative_duration.xplane.pb");

	/* The last kernel starts at INT64_MAX - 10 ps and lasts 4 us: it ends past int64. */
	sp = space_new();
	p = gpu_plane(sp, "jit_train", "jit_eval");
	p.xp->lines[0]->events[2]->offset_ps = INT64_MAX - 10;
	gen_space_write(sp, dir, "overflow_offset.xplane.pb");

	/* A second stream at INT64_MAX ns: (INT64_MAX - 1000) ns is past int64 picoseconds. */
	sp = space_new();
	p = gpu_plane(sp, "jit_train", "jit_eval");
	l = gen_line_add(&p, 2, "Stream #8(Compute)", INT64_MAX);
	kernel(l, EM_FUSION, 0, US(1), "jit_train", 7);
	gen_space_write(sp, dir, "far_lines.xplane.pb");

	/*
	 * A plane whose one stream is 1 ms before INT64_MAX ns: legal, and in
	 * int64 ps from its own start, but past what a .pftrace's int64 ns can
	 * count from the clock's zero.
	 */
	sp = space_new();
	p = device_plane(sp, 3, "/device:GPU:3");
	l = gen_line_add(&p, 1, "Stream #7(Compute)", INT64_MAX - 1000000);
	kernel(l, EM_FUSION, 0, US(1), "jit_train", 7);
	gen_space_write(sp, dir, "late_plane.xplane.pb");

	/*
	 * jit_eval's kernel starts 30 us before its line (offset -10 us on a
	 * line 20 us after the plane's other line): legal protobuf, odd data.
	 */
	sp = space_new();
	p = gpu_plane(sp, "jit_train", NULL);
	l = gen_line_add(&p, 2, "Stream #8(Compute)", 1000 + 20000);
	kernel(l, EM_REDUCE, -US(30), US(4), "jit_eval", 8);
	gen_space_write(sp, dir, "negative_offset.xplane.pb");

	/* jit_eval's kernel written as an aggregate of -3 occurrences (num_occurrences is int64). */
	sp = space_new();
	p = gpu_plane(sp, "jit_train", "jit_eval");
	p.xp->lines[0]->events[2]->data_case = TENSORFLOW__PROFILER__XEVENT__DATA_NUM_OCCURRENCES;
	p.xp->lines[0]->events[2]->num_occurrences = -3;
	gen_space_write(sp, dir, "negative_occurrences.xplane.pb");
}

/*
 * Metadata: an event whose metadata id is absent (99), a stat whose
 * metadata id is absent (98), event metadata 2 given twice (first
 * "gemm_old", then "gemm_1": the last wins), stat metadata 2 given twice.
 */
static void bad_metadata(const char *dir)
{
	XSpace *sp = space_new();
	struct gen_plane p = gpu_plane(sp, "jit_train", "jit_eval");
	XEvent *e;

	e = kernel(p.xp->lines[0], 99, US(30), US(1), "jit_eval", 8);
	gen_event_i64(e, 98, 5);
	gen_space_write(sp, dir, "missing_metadata.xplane.pb");

	sp = space_new();
	p = gen_plane_add(sp, 1, "/device:GPU:0", 0);
	gen_stat_md_add(&p, SM_HLO_MODULE, "hlo_module");
	gen_stat_md_add(&p, SM_PROGRAM_ID, "old_program_id");
	gen_stat_md_add(&p, SM_PROGRAM_ID, "program_id");
	gen_event_md_add(&p, EM_FUSION, "fusion_1");
	gen_event_md_add(&p, EM_GEMM, "gemm_old");
	gen_event_md_add(&p, EM_REDUCE, "reduce_1");
	gen_event_md_add(&p, EM_GEMM, "gemm_1");
	{
		XLine *l = gen_line_add(&p, 1, "Stream #7(Compute)", 1000);

		kernel(l, EM_FUSION, US(0), US(10), "jit_train", 7);
		kernel(l, EM_GEMM, US(10), US(5), "jit_train", 7);
		kernel(l, EM_REDUCE, US(20), US(4), "jit_eval", 8);
	}
	gen_space_write(sp, dir, "duplicate_metadata.xplane.pb");
}

/*
 * ref_value naming a stat metadata id that does not exist (77): jit_eval's
 * kernel names its module by reference, so its function is unknown.
 */
static void bad_ref_nowhere(const char *dir)
{
	XSpace *sp = space_new();
	struct gen_plane p = gpu_plane(sp, "jit_train", NULL);

	gen_event_ref(p.xp->lines[0]->events[2], SM_HLO_MODULE, 77);
	gen_space_write(sp, dir, "ref_nowhere.xplane.pb");
}

/*
 * The control trace with what a profiler (or capture's converter) writes
 * about itself: one XSpace.errors entry and two XSpace.warnings entries.
 */
static void bad_profiler_notes(const char *dir)
{
	XSpace *sp = space_new();

	gpu_plane(sp, "jit_train", "jit_eval");
	PUSH(sp->errors, sp->n_errors, xstrdup("device 1 lost"));
	PUSH(sp->warnings, sp->n_warnings, xstrdup("CUPTI dropped 12 activity records (buffer full)"));
	PUSH(sp->warnings, sp->n_warnings, xstrdup("the record of process 42 is partial"));
	gen_space_write(sp, dir, "profiler_notes.xplane.pb");
}

/*
 * Function names with invalid UTF-8 (a lone 0xff, a truncated sequence),
 * control characters (tab, newline, escape, DEL), CSV's quote and comma,
 * and a valid multi-byte name. Strings stop at a NUL, so none is written.
 */
static void bad_names(const char *dir)
{
	XSpace *sp = space_new();

	gpu_plane(sp, "jit_\xff\xe2\x82 bad,\"utf8\"", "jit_ctl\t\n\x1b[31m\x7f\xc3\xa9t\xc3\xa9");
	gen_space_write(sp, dir, "bad_names.xplane.pb");
}

/*
 * A profiler's notes and a plane name that would forge lines of a log or
 * send escape codes to a terminal were they printed raw, and a plane
 * without a name.
 */
static void bad_hostile_notes(const char *dir)
{
	XSpace *sp = space_new();

	gpu_plane(sp, "jit_train", "jit_eval");
	PUSH(sp->errors, sp->n_errors, xstrdup("lost\nxplane-stat: forged line\x1b[2J"));
	gen_plane_add(sp, 9, "", 1000);
	gen_plane_add(sp, 10, "/host:\r\x1b]0;title\x07", 1000);
	gen_space_write(sp, dir, "hostile_notes.xplane.pb");
}

/*
 * A TPU plane stating a peak of 1e308 TFLOP/s and GB/s: finite as stated,
 * past the largest double once in FLOP/s. One module of one op, 10 us.
 */
static void bad_huge_peak(const char *dir)
{
	XSpace *sp = space_new();
	struct gen_plane t = gen_plane_add(sp, 1, "/device:TPU:0", 1000);
	XLine *mod = gen_line_add(&t, 1, "XLA Modules", 1000), *ops = gen_line_add(&t, 2, "XLA Ops", 1000);

	gen_plane_str(&t, "device_type_string", "TPU v6 Lite");
	gen_plane_f64(&t, "peak_teraflops_per_second", 1e308);
	gen_plane_f64(&t, "peak_hbm_bw_gigabytes_per_second", 1e308);
	gen_ev_add(&t, mod, "jit_f(1)", 0, 10000000);
	gen_ev_add(&t, ops, "fusion.1", 0, 10000000);
	gen_space_write(sp, dir, "huge_peak.xplane.pb");
}

/* ---- malformed wire bytes ---------------------------------------------------------- */

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v > 0x7f) {
		v >>= 7;
		n++;
	}
	return n;
}

/*
 * The control trace where the first kernel's first stat carries an unknown
 * field (number 99) nested 20000 deep: each level one length-delimited
 * field holding the next. Readers skip it as a whole and give the control
 * trace's answer.
 */
static void bad_deep_unknown(const char *dir)
{
	enum { DEPTH = 20000 };
	size_t *len = gen_alloc((DEPTH + 1) * sizeof(*len)), k;
	struct gen_bytes b = {0};
	XSpace *sp = space_new();
	struct gen_plane p = gpu_plane(sp, "jit_train", "jit_eval");
	XStat *st = p.xp->lines[0]->events[0]->stats[0];
	ProtobufCMessageUnknownField *u = gen_alloc(sizeof(*u));

	/* Level k holds level k - 1: a tag (2 bytes for field 99), a length, the content. */
	for (k = 1; k <= DEPTH; k++)
		len[k] = 2 + varint_len(len[k - 1]) + len[k - 1];
	/* protobuf-c writes an unknown field's data as is: the length prefix is part of it. */
	put_varint(&b, len[DEPTH - 1]);
	for (k = DEPTH; k >= 2; k--) {
		put_varint(&b, 99 << 3 | 2);
		put_varint(&b, len[k - 2]);
	}
	if (b.n != varint_len(len[DEPTH - 1]) + len[DEPTH - 1])
		die("deep_unknown: %zu bytes, expected %zu", b.n, len[DEPTH - 1]);
	u->tag = 99;
	u->wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
	u->len = b.n;
	u->data = b.p;
	st->base.unknown_fields = u;
	st->base.n_unknown_fields = 1;
	gen_space_write(sp, dir, "deep_unknown.xplane.pb");
	free(len);
}

static struct gen_bytes control_plane(void)
{
	XSpace *sp = space_new();
	struct gen_plane p = gpu_plane(sp, "jit_train", "jit_eval");

	/* Take the plane out of the space so it can be packed alone. */
	sp->n_planes = 0;
	protobuf_c_message_free_unpacked(&sp->base, NULL);
	return gen_plane_pack(p.xp);
}

static void bad_wire(const char *dir)
{
	struct gen_bytes plane = control_plane(), b = {0}, inner = {0};
	static const uint8_t varint_name[] = {0x10, 0x05};	/* XPlane.name (2) as a varint */
	int i;

	/* The plane's length prefix claims 1000 bytes more than the file holds. */
	put_varint(&b, 1 << 3 | 2);
	put_varint(&b, plane.n + 1000);
	put(&b, plane.p, plane.n);
	gen_write(dir, "len_past_end.xplane.pb", &b);
	b.n = 0;

	/* The plane's name given again, as a varint: a known field with the wrong wire type. */
	memcpy(inner.p = gen_alloc(plane.n + sizeof(varint_name)), plane.p, plane.n);
	memcpy(inner.p + plane.n, varint_name, sizeof(varint_name));
	put_len(&b, 1, inner.p, plane.n + sizeof(varint_name));
	gen_write(dir, "wrong_wire_type.xplane.pb", &b);
	b.n = 0;
	free(inner.p);
	inner.p = NULL;

	/*
	 * The control trace and a host plane whose line gives its name as a
	 * varint: malformed where the device planes are not.
	 */
	{
		XSpace *sp = space_new();
		struct gen_bytes line = {0}, host = {0};

		gpu_plane(sp, "jit_train", "jit_eval");
		free(b.p);
		b = gen_space_pack(sp);
		put(&line, varint_name, sizeof(varint_name));
		put_len(&host, 2, "/host:CPU", 9);
		put_len(&host, 3, line.p, line.n);
		put_len(&b, 1, host.p, host.n);
		gen_write(dir, "bad_host_plane.xplane.pb", &b);
		free(b.p);
		b.p = NULL;
		b.n = 0;
		free(line.p);
		free(host.p);
	}

	/* 20000 start-group tags: groups are refused, whatever their depth. */
	for (i = 0; i < 20000; i++)
		put_varint(&b, 99 << 3 | 3);
	gen_write(dir, "deep_groups.xplane.pb", &b);
	b.n = 0;

	/* Random bytes. */
	{
		uint64_t x = 0x2545f4914f6cdd1dULL;
		uint8_t c;

		for (i = 0; i < 4096; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			c = (uint8_t)(x >> 56);
			put(&b, &c, 1);
		}
		gen_write(dir, "random.xplane.pb", &b);
		b.n = 0;
	}
	free(b.p);
	free(plane.p);
}

/* ---- gzip -------------------------------------------------------------------------- */

/* in as one gzip member (deflate level 9). */
static struct gen_bytes gzip_bytes(const struct gen_bytes *in)
{
	struct gen_bytes out = {0};
	z_stream zs;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		die("deflateInit2 failed");
	out.n = deflateBound(&zs, in->n);
	out.p = gen_alloc(out.n);
	zs.next_in = in->p;
	zs.avail_in = (uInt)in->n;
	zs.next_out = out.p;
	zs.avail_out = (uInt)out.n;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
		die("deflate failed");
	out.n = zs.total_out;
	deflateEnd(&zs);
	return out;
}

static void bad_gzip(const char *dir)
{
	XSpace *sp = space_new();
	struct gen_bytes plain, gz, b = {0};
	size_t pad = (size_t)64 << 20;

	gpu_plane(sp, "jit_train", "jit_eval");
	plain = gen_space_pack(sp);

	gz = gzip_bytes(&plain);
	gen_write(dir, "gpu.xplane.pb.gz", &gz);
	/* Cut in the middle of the deflate data. */
	b.p = gz.p;
	b.n = gz.n / 2;
	gen_write(dir, "truncated.xplane.pb.gz", &b);
	/* The CRC of the data in the trailer altered. */
	gz.p[gz.n - 8] ^= 0x55;
	gen_write(dir, "bad_crc.xplane.pb.gz", &gz);
	gz.p[gz.n - 8] ^= 0x55;
	/* Bytes after the last member that are not another member. */
	b.p = NULL;
	b.n = 0;
	put(&b, gz.p, gz.n);
	put(&b, "trailing garbage", 16);
	gen_write(dir, "trailing_garbage.xplane.pb.gz", &b);
	free(b.p);
	free(gz.p);

	/*
	 * A bomb: the control trace, then an unknown field (number 15) of 64 MiB
	 * of zeros, about 64 KiB compressed. A valid XSpace: with a limit above
	 * 64 MiB it reads as the control trace.
	 */
	b.p = NULL;
	b.n = 0;
	put(&b, plain.p, plain.n);
	put_varint(&b, 15 << 3 | 2);
	put_varint(&b, pad);
	b.p = xrealloc(b.p, b.n + pad + 1);
	memset(b.p + b.n, 0, pad);
	b.n += pad;
	gz = gzip_bytes(&b);
	gen_write(dir, "bomb.xplane.pb.gz", &gz);
	free(gz.p);
	free(b.p);
	free(plain.p);
}

static void bad_in_order(const char *dir)
{
	order(dir, 0);
}

static void bad_out_of_order(const char *dir)
{
	order(dir, 1);
}

static const struct gen_scenario scenarios[] = {
	{"control", bad_control},
	{"in_order", bad_in_order},
	{"out_of_order", bad_out_of_order},
	{"times", bad_times},
	{"metadata", bad_metadata},
	{"ref_nowhere", bad_ref_nowhere},
	{"profiler_notes", bad_profiler_notes},
	{"names", bad_names},
	{"hostile_notes", bad_hostile_notes},
	{"huge_peak", bad_huge_peak},
	{"wire", bad_wire},
	{"deep_unknown", bad_deep_unknown},
	{"gzip", bad_gzip},
};

int main(int argc, char **argv)
{
	return gen_run(argc, argv, scenarios, sizeof(scenarios) / sizeof(scenarios[0]));
}
