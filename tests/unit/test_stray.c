/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xp_stray: the stray-end rule (xp_stray.h) on planes built by hand, on a
 * file read by both readers, and planes (an_planes) on the synthetic
 * tpu_stray_end trace. Every expected flag is worked out in the comment
 * above its check from the rule: REST's window W = max end - min start, a
 * cluster of the k latest-ending events is stray when each starts by REST's
 * max end and ends more than 10 W after it, REST has >= 10 events, k <= n/10.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "an_planes.h"
#include "test.h"
#include "test_trace.h"
#include "xp_input.h"
#include "xp_model.h"
#include "xp_stray.h"
#include "xplane.pb-c.h"

#define MAXEV 64

/* A plane of up to two lines built in memory: only what the rule reads. */
struct fake {
	struct xp_plane p;
	struct xp_line lines[2];
	struct xp_event ev[MAXEV];
	unsigned char stray[MAXEV];
};

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->p.loaded = 1;
	f->p.lines = f->lines;
	f->p.events = f->ev;
}

/* Appends an event to line l (the lines' events stay contiguous: fill line 0 first). */
static void add(struct fake *f, uint32_t l, int64_t start, int64_t dur)
{
	struct xp_event *e = &f->ev[f->p.nevents];

	e->start_ps = start;
	e->dur_ps = dur;
	e->line = l;
	if (f->p.nlines < l + 1) {
		f->p.nlines = l + 1;
		f->lines[l].first_event = f->p.nevents;
	}
	f->lines[l].nevents++;
	f->p.nevents++;
}

/* n normal events on line l: event i runs [100 i, 100 i + 50]; window [0, 100 (n-1) + 50]. */
static void normal(struct fake *f, uint32_t l, int n)
{
	int i;

	for (i = 0; i < n; i++)
		add(f, l, 100 * i, 50);
}

/* Runs the rule; returns the count, -1 on failure. */
static long run(struct fake *f, const unsigned char *use)
{
	struct xp_err err = {0};
	size_t count = 99;

	memset(f->stray, 7, sizeof(f->stray));
	if (xp_plane_stray_ends(&f->p, use, f->stray, &count, &err))
		return -1;
	return (long)count;
}

/* Flags of events [from, to) are all v. */
static int flags(const struct fake *f, size_t from, size_t to, int v)
{
	size_t i;

	for (i = from; i < to; i++)
		if (f->stray[i] != v)
			return 0;
	return 1;
}

static void test_cluster(void)
{
	struct fake f;

	/*
	 * 27 normal events: REST window [0, 2650], W = 2650, mark 2650 + 26500 = 29150.
	 * Three identical events [1000, 40000]: k = 1 and 2 keep the others in REST
	 * (its max end is 40000, nothing ends past it); k = 3 = floor(30 / 10) leaves the
	 * normal events, each starts by 2650 and ends past 29150: all three.
	 */
	fake_init(&f);
	normal(&f, 0, 27);
	add(&f, 0, 1000, 39000);
	add(&f, 0, 1000, 39000);
	add(&f, 0, 1000, 39000);
	CHECK_INT(run(&f, NULL), 3);
	CHECK(flags(&f, 0, 27, 0));
	CHECK(flags(&f, 27, 30, 1));

	/* The same three among 20 normal events: n = 23 allows k <= 2, which never leaves them out. */
	fake_init(&f);
	normal(&f, 0, 20);
	add(&f, 0, 1000, 39000);
	add(&f, 0, 1000, 39000);
	add(&f, 0, 1000, 39000);
	CHECK_INT(run(&f, NULL), 0);
	CHECK(flags(&f, 0, 23, 0));

	/*
	 * Stray events first in the line, normal ones after: the order does not matter.
	 * Ends 40000, 40001, 40002 (distinct): still only k = 3 leaves them out.
	 */
	fake_init(&f);
	add(&f, 0, 0, 40000);
	add(&f, 0, 1, 40000);
	add(&f, 0, 2, 40000);
	normal(&f, 0, 27);
	CHECK_INT(run(&f, NULL), 3);
	CHECK(flags(&f, 0, 3, 1));
	CHECK(flags(&f, 3, 30, 0));

	/*
	 * Ends far apart (29151, 1e9) among 27 normal events: k = 1 leaves out 1e9 alone,
	 * REST = 27 normal + [0, 29151]: W = 29151, 1e9 - 29151 > 291510. The smallest k
	 * wins, so [0, 29151] stays (one pass of the rule, as documented).
	 */
	fake_init(&f);
	normal(&f, 0, 27);
	add(&f, 0, 0, 29151);
	add(&f, 0, 0, 1000000000);
	CHECK_INT(run(&f, NULL), 1);
	CHECK(flags(&f, 0, 28, 0));
	CHECK_INT(f.stray[28], 1);
}

static void test_threshold(void)
{
	struct fake f;

	/* 10 normal events: window [0, 950], W = 950, mark 950 + 9500 = 10450. Ending at it: kept. */
	fake_init(&f);
	normal(&f, 0, 10);
	add(&f, 0, 0, 10450);
	CHECK_INT(run(&f, NULL), 0);
	CHECK(flags(&f, 0, 11, 0));
	/* One picosecond later: stray (11 events, k = 1, REST of exactly 10). */
	f.ev[10].dur_ps = 10451;
	CHECK_INT(run(&f, NULL), 1);
	CHECK(flags(&f, 0, 10, 0));
	CHECK_INT(f.stray[10], 1);
	/* Starting exactly at REST's max end (950) still counts as inside the window. */
	f.ev[10].start_ps = 950;
	f.ev[10].dur_ps = 10451 - 950;
	CHECK_INT(run(&f, NULL), 1);
	CHECK_INT(f.stray[10], 1);
	/* One picosecond after it, same end: a later execution, not malformed. */
	f.ev[10].start_ps = 951;
	f.ev[10].dur_ps = 10451 - 951;
	CHECK_INT(run(&f, NULL), 0);
	CHECK_INT(f.stray[10], 0);
}

static void test_exempt(void)
{
	struct fake f;
	int i;

	/* A tiny plane: 9 normal events (W = 850) and one ending far out: 10 events, k <= 1, REST of 9. */
	fake_init(&f);
	normal(&f, 0, 9);
	add(&f, 0, 0, 1000000);
	CHECK_INT(run(&f, NULL), 0);
	CHECK(flags(&f, 0, 10, 0));

	/* A late execution: 20 normal events (max end 1950), then one from 5000 to 1e6. */
	fake_init(&f);
	normal(&f, 0, 20);
	add(&f, 0, 5000, 995000);
	CHECK_INT(run(&f, NULL), 0);
	CHECK(flags(&f, 0, 21, 0));

	/* REST of zero width: ten instants at 500 and one long event from 500. W = 0: no window to judge. */
	fake_init(&f);
	for (i = 0; i < 10; i++)
		add(&f, 0, 500, 0);
	add(&f, 0, 500, 1000000);
	CHECK_INT(run(&f, NULL), 0);
	CHECK(flags(&f, 0, 11, 0));

	/* No events, no lines. */
	fake_init(&f);
	CHECK_INT(run(&f, NULL), 0);
}

static void test_use_line(void)
{
	struct fake f;
	const unsigned char both[2] = {1, 1}, first[2] = {1, 0}, second[2] = {0, 1};

	/* Line 0: 27 normal events (mark 29150); line 1: three events [1000, 40000]. */
	fake_init(&f);
	normal(&f, 0, 27);
	add(&f, 1, 1000, 39000);
	add(&f, 1, 1000, 39000);
	add(&f, 1, 1000, 39000);
	CHECK_INT(run(&f, NULL), 3);
	CHECK(flags(&f, 0, 27, 0));
	CHECK(flags(&f, 27, 30, 1));
	CHECK_INT(run(&f, both), 3);
	CHECK(flags(&f, 27, 30, 1));
	/* Without line 1 there is nothing to flag; without line 0, three events are too few. */
	CHECK_INT(run(&f, first), 0);
	CHECK(flags(&f, 0, 30, 0));
	CHECK_INT(run(&f, second), 0);
	CHECK(flags(&f, 0, 30, 0));
}

/* Times near both ends of int64: 10 W needs more than 64 bits. */
static void test_extremes(void)
{
	struct fake f;
	int i;

	/*
	 * 10 events from -4e18 + 10 i, 5 ps each: REST window [-4e18, -4e18 + 95], W = 95.
	 * One more from -4e18 lasting INT64_MAX ps (to INT64_MAX - 4e18): stray.
	 */
	fake_init(&f);
	for (i = 0; i < 10; i++)
		add(&f, 0, -4000000000000000000LL + 10 * i, 5);
	add(&f, 0, -4000000000000000000LL, INT64_MAX);
	CHECK_INT(run(&f, NULL), 1);
	CHECK(flags(&f, 0, 10, 0));
	CHECK_INT(f.stray[10], 1);

	/*
	 * 11 events from -5e18 + 1e17 i, 50 ps each: REST window [-5e18, -4e18 + 50],
	 * W = 1e18 + 50, and 10 W = 1e19 + 500 does not fit in int64 (wrapped, it would be
	 * negative and flag anything). One more from -5e18 to INT64_MAX - 1 - 5e18 ends
	 * 8.2e18 past REST's end, less than 10 W: kept.
	 */
	fake_init(&f);
	for (i = 0; i < 11; i++)
		add(&f, 0, -5000000000000000000LL + 100000000000000000LL * i, 50);
	add(&f, 0, -5000000000000000000LL, INT64_MAX - 1);
	CHECK_INT(run(&f, NULL), 0);
	CHECK(flags(&f, 0, 12, 0));
}

/* ---- both readers, on an encoded file -------------------------------------------- */

typedef Tensorflow__Profiler__XEvent PbEvent;
typedef Tensorflow__Profiler__XLine PbLine;
typedef Tensorflow__Profiler__XPlane PbPlane;

/*
 * Line "Ops" at 1000 ns: 27 events at offsets 100 i ps, 50 ps each; line "Counters"
 * at 1001 ns (1000 ps later): events at offsets 0, 500 and 1650 ps ending at absolute
 * 40000 ps, and one at 20000 ps (after the window: kept). Relative to the base:
 * REST = Ops [0, 2650], W = 2650, mark 29150; the counters start 1000, 1500, 2650,
 * 21000 and end 40000, 40000, 40000, 21050. n = 31, k <= 3: k = 3 leaves out the three
 * ending at 40000 (REST then also holds [21000, 21050], W = 21050: 40000 - 21050 is not
 * past 210500). So: none. Without the late event, n = 30 and k = 3 leaves REST = Ops: 3.
 */
static uint8_t *encode(int with_late, size_t *len)
{
	Tensorflow__Profiler__XSpace s = TENSORFLOW__PROFILER__XSPACE__INIT;
	PbPlane p = TENSORFLOW__PROFILER__XPLANE__INIT, *pp[1] = {&p};
	PbLine l[2], *lp[2] = {&l[0], &l[1]};
	PbEvent e[31], *ep[31];
	static const int64_t coff[4] = {0, 500, 1650, 20000};
	uint8_t *buf;
	int i;

	for (i = 0; i < 31; i++) {
		tensorflow__profiler__xevent__init(&e[i]);
		e[i].metadata_id = 1;
		e[i].data_case = TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS;
		ep[i] = &e[i];
	}
	for (i = 0; i < 27; i++) {
		e[i].offset_ps = 100 * i;
		e[i].duration_ps = 50;
	}
	for (i = 0; i < 4; i++) {
		e[27 + i].offset_ps = coff[i];
		/* relative to the base: starts 1000 + offset, ends 40000 (the late one: 50 ps) */
		e[27 + i].duration_ps = i < 3 ? 40000 - 1000 - coff[i] : 50;
	}
	p.name = "/device:TPU:0";
	tensorflow__profiler__xline__init(&l[0]);
	l[0].id = 1;
	l[0].name = "Ops";
	l[0].timestamp_ns = 1000;
	l[0].n_events = 27;
	l[0].events = ep;
	tensorflow__profiler__xline__init(&l[1]);
	l[1].id = 2;
	l[1].name = "Counters";
	l[1].timestamp_ns = 1001;
	l[1].n_events = with_late ? 4 : 3;
	l[1].events = ep + 27;
	p.n_lines = 2;
	p.lines = lp;
	s.n_planes = 1;
	s.planes = pp;
	*len = tensorflow__profiler__xspace__get_packed_size(&s);
	buf = malloc(*len + 1);
	if (buf)
		tensorflow__profiler__xspace__pack(&s, buf);
	return buf;
}

static void skip_counters(const char *plane, const char *const *names, size_t n, unsigned char *want,
			  void *ctx)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], "Counters"))
			want[i] = 0;
}

/* Reads buf with r (want_lines: skip_counters if skip) and applies the rule with use. */
static long on_file(const struct xp_reader *r, const uint8_t *buf, size_t len, int skip,
		    const unsigned char *use, unsigned char *stray, size_t nstray)
{
	struct xp_read_opts o = {.reader = r, .want_lines = skip ? skip_counters : NULL};
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	size_t count = 0;
	long ret = -1;

	memset(stray, 7, nstray);
	if (xp_trace_read_opts(&o, buf, len, &t, &err)) {
		fprintf(stderr, "%s: %s\n", r->name, err.msg);
		return -1;
	}
	if (t->nplanes == 1 && t->planes[0].nevents <= nstray &&
	    !xp_plane_stray_ends(&t->planes[0], use, stray, &count, &err))
		ret = (long)count;
	xp_trace_free(t);
	return ret;
}

static void test_readers(void)
{
	const struct xp_reader *readers[2] = {&xp_reader_protobuf_c, &xp_reader_wire};
	const unsigned char ops_only[2] = {1, 0};
	unsigned char stray[2][31];
	size_t len;
	uint8_t *buf;
	int r;

	buf = encode(0, &len);
	CHECK(buf != NULL);
	for (r = 0; buf && r < 2; r++) {
		CHECK_INT(on_file(readers[r], buf, len, 0, NULL, stray[r], 31), 3);
		CHECK_INT(memchr(stray[r], 1, 27) == NULL, 1);
		CHECK_INT(stray[r][27] + stray[r][28] + stray[r][29], 3);
	}
	if (buf)
		CHECK(!memcmp(stray[0], stray[1], 30));
	/*
	 * The same lines, chosen two ways: protobuf-c reads every line and is told to use
	 * Ops only; the wire reader skips Counters. Nothing to flag in either.
	 */
	if (buf) {
		CHECK_INT(on_file(&xp_reader_protobuf_c, buf, len, 0, ops_only, stray[0], 31), 0);
		CHECK_INT(on_file(&xp_reader_wire, buf, len, 1, NULL, stray[1], 31), 0);
		CHECK_INT(memchr(stray[0], 1, 30) == NULL, 1);
	}
	free(buf);

	/* With the late event the window it opens hides the three: none, by both readers. */
	buf = encode(1, &len);
	CHECK(buf != NULL);
	for (r = 0; buf && r < 2; r++) {
		CHECK_INT(on_file(readers[r], buf, len, 0, NULL, stray[r], 31), 0);
		CHECK_INT(memchr(stray[r], 1, 31) == NULL, 1);
	}
	free(buf);
}

/*
 * planes on tpu_stray_end.xplane.pb (tests/synth/EXPECTED.md, section 11), by both
 * readers: TPU:0 has 3 stray ends (1 on XLA Modules, 2 on _counters_), span 212 us
 * without them and 82,130 us with them; TPU:1 (a late execution) and TPU:2 (5 events)
 * have none.
 */
static void test_synth_planes(void)
{
	const struct xp_reader *readers[2] = {&xp_reader_protobuf_c, &xp_reader_wire};
	struct xp_buf b;
	struct xp_err err = {0};
	int r;

	if (test_buf_load(SYNTH_DIR "/tpu_stray_end.xplane.pb", &b))
		return;
	for (r = 0; r < 2; r++) {
		struct xp_trace *t = NULL;
		struct an_planes p = {0};
		const struct an_plane_info *pi;

		if (xp_trace_read(readers[r], b.data, b.len, &t, &err)) {
			fprintf(stderr, "%s: %s\n", readers[r]->name, err.msg);
			test_failures++;
			continue;
		}
		CHECK_INT(an_planes_describe(t, &p, &err), 0);
		CHECK_INT(p.n, 3);
		CHECK_INT(p.stray_ends, 3);
		if (p.n == 3) {
			pi = &p.planes[0];
			CHECK_STR(pi->name, "/device:TPU:0");
			CHECK_INT(pi->events, 37);
			CHECK_INT(pi->stray_ends, 3);
			CHECK_INT(pi->span_ps, 212000000);
			CHECK_INT(pi->span_all_ps, 82130000000LL);
			CHECK_INT(pi->nlines, 3);
			if (pi->nlines == 3) {
				CHECK_INT(pi->lines[0].stray_ends, 1);
				CHECK_INT(pi->lines[0].first_ps, 0);
				CHECK_INT(pi->lines[0].last_end_ps, 212000000);
				CHECK_INT(pi->lines[1].stray_ends, 0);
				CHECK_INT(pi->lines[1].first_ps, 1000000);
				CHECK_INT(pi->lines[1].last_end_ps, 207000000);
				CHECK_STR(pi->lines[2].name, "_counters_");
				CHECK_INT(pi->lines[2].stray_ends, 2);
				CHECK_INT(pi->lines[2].first_ps, 50000000);
				CHECK_INT(pi->lines[2].last_end_ps, 151000000);
			}
			CHECK_INT(p.planes[1].stray_ends, 0);
			CHECK_INT(p.planes[1].span_ps, 50010000000LL);
			CHECK_INT(p.planes[1].span_all_ps, 50010000000LL);
			CHECK_INT(p.planes[2].stray_ends, 0);
			CHECK_INT(p.planes[2].span_ps, 82080000000LL);
		}
		an_planes_release(&p);
		xp_trace_free(t);
	}
	xp_buf_release(&b);
}

/* ---- planes read in pieces (xp_read_opts.line_events) against the whole model ---- */

static size_t pieces_handed;

static void count_pieces(const struct xp_plane *p, struct xp_line *l, const struct xp_event *ev, size_t n,
			 void *ctx)
{
	__atomic_add_fetch(&pieces_handed, 1, __ATOMIC_RELAXED);
	an_planes_line_events(p, l, ev, n, ctx);
}

/* o read as the planes command reads, every plane with lines in pieces (through line_events). */
static void in_pieces(struct xp_read_opts *o,
		      void (*line_events)(const struct xp_plane *, struct xp_line *, const struct xp_event *,
					  size_t, void *))
{
	o->plane_read = an_planes_plane_read;
	o->plane_user_free = an_planes_user_free;
	o->release_events = 1;
	o->line_events = line_events;
	o->line_user_size = sizeof(struct xp_line_spans);
	o->pieces_line_bytes = 1;
}

/* planes of buf: whole (pieces 0) or each plane described as read, in pieces where it can. */
static int planes_of(const struct xp_buf *b, int pieces, unsigned jobs, struct an_planes *out,
		     struct xp_trace **t)
{
	struct xp_read_opts o = {.reader = &xp_reader_wire, .jobs = jobs, .split_bytes = 1,
				 .event_stats = XP_EVSTATS_NONE};
	struct xp_err err = {0};

	if (pieces)
		in_pieces(&o, count_pieces);
	if (xp_trace_read_opts(&o, b->data, b->len, t, &err) || an_planes_describe(*t, out, &err)) {
		fprintf(stderr, "planes_of: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/* Everything planes shows, the same. */
static void same_planes(const struct an_planes *a, const struct an_planes *b, const char *what)
{
	size_t i, j;

	CHECK(a->n == b->n && a->events == b->events && a->stray_ends == b->stray_ends);
	for (i = 0; i < a->n && i < b->n; i++) {
		const struct an_plane_info *x = &a->planes[i], *y = &b->planes[i];

		if (x->events != y->events || x->stray_ends != y->stray_ends || x->span_ps != y->span_ps ||
		    x->span_all_ps != y->span_all_ps || x->nlines != y->nlines || strcmp(x->name, y->name)) {
			fprintf(stderr, "%s: plane %zu differs\n", what, i);
			test_failures++;
			continue;
		}
		for (j = 0; j < x->nlines; j++) {
			const struct an_plane_line *l = &x->lines[j], *m = &y->lines[j];

			if (l->events != m->events || l->stray_ends != m->stray_ends ||
			    l->first_ps != m->first_ps || l->last_end_ps != m->last_end_ps) {
				fprintf(stderr, "%s: plane %zu line %zu differs\n", what, i, j);
				test_failures++;
			}
		}
	}
}

/*
 * The synthetic stray-end trace (a plane the summaries cannot decide: read
 * again whole) and every real trace, at 1 and 3 threads with every plane
 * split: the same planes as from the whole model, and pieces were handed.
 */
static void test_pieces(void)
{
	static const char *const files[] = {
		SYNTH_DIR "/tpu_stray_end.xplane.pb",
		TESTDATA_DIR "/real/tpu_v6e_inference.xplane.pb",
		TESTDATA_DIR "/real/v100_tf_bert.xplane.pb",
		TESTDATA_DIR "/real/mi300x_jax_conv.xplane.pb",
		TESTDATA_DIR "/real/mi300x_jax_gemm.xplane.pb",
	};
	size_t f;
	unsigned jobs;

	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct xp_buf b;
		struct xp_trace *tw = NULL;
		struct an_planes whole = {0};

		if (test_buf_load(files[f], &b))
			continue;
		CHECK_INT(planes_of(&b, 0, 1, &whole, &tw), 0);
		for (jobs = 1; jobs <= 3; jobs += 2) {
			struct xp_trace *t = NULL;
			struct an_planes p = {0};

			pieces_handed = 0;
			CHECK_INT(planes_of(&b, 1, jobs, &p, &t), 0);
			same_planes(&whole, &p, files[f]);
			CHECK(pieces_handed > 0);
			an_planes_release(&p);
			xp_trace_free(t);
		}
		if (f == 0)	/* TPU:0's stray ends: its plane was read again */
			CHECK_INT(whole.stray_ends, 3);
		an_planes_release(&whole);
		xp_trace_free(tw);
		xp_buf_release(&b);
	}
}

/*
 * Crafted bad inputs (RELIABILITY.md): in pieces, the whole read's verdict,
 * message and counts (a plane that fails in pieces is read again whole).
 */
/* An analysis that checks nothing: the reader alone must refuse what a whole read refuses. */
static void ignore_events(const struct xp_plane *p, struct xp_line *l, const struct xp_event *ev, size_t n,
			  void *ctx)
{
	(void)p;
	(void)l;
	(void)ev;
	(void)n;
	(void)ctx;
}

static int accept_plane(struct xp_plane *p, void *ctx, struct xp_err *err)
{
	(void)p;
	(void)ctx;
	(void)err;
	return 0;
}

static void test_pieces_bad(void)
{
	static const char *const names[] = {
		"negative_duration", "overflow_offset", "far_lines", "negative_offset", "out_of_order",
		"in_order", "missing_metadata", "duplicate_metadata", "bad_names", "ref_nowhere", "gpu",
		"len_past_end", "wrong_wire_type", "random", "deep_unknown",
	};
	size_t f;

	for (f = 0; f < sizeof(names) / sizeof(names[0]); f++) {
		char path[512];
		struct xp_buf b;
		struct xp_err err = {0}, err2 = {0};
		struct xp_read_opts o = {.reader = &xp_reader_wire, .event_stats = XP_EVSTATS_NONE};
		struct xp_trace *tw = NULL, *t = NULL;
		int rw, rp;

		snprintf(path, sizeof(path), "%s/%s.xplane.pb", BAD_DIR, names[f]);
		if (test_buf_load(path, &b))
			continue;
		rw = xp_trace_read_opts(&o, b.data, b.len, &tw, &err);
		in_pieces(&o, an_planes_line_events);
		rp = xp_trace_read_opts(&o, b.data, b.len, &t, &err2);
		CHECK_INT(rp, rw);
		CHECK_STR(err2.msg, err.msg);
		if (!rw && !rp)
			CHECK(!memcmp(&t->counts, &tw->counts, sizeof(t->counts)));
		xp_trace_free(t);
		t = NULL;
		/* the same verdict when the analysis checks nothing */
		memset(&err2, 0, sizeof(err2));
		o.line_events = ignore_events;
		o.plane_read = accept_plane;
		o.plane_user_free = NULL;
		rp = xp_trace_read_opts(&o, b.data, b.len, &t, &err2);
		if (rp != rw || strcmp(err2.msg, err.msg))
			fprintf(stderr, "%s: unchecked pieces: %d '%s', whole %d '%s'\n", names[f], rp, err2.msg, rw,
				err.msg);
		CHECK_INT(rp, rw);
		CHECK_STR(err2.msg, err.msg);
		xp_trace_free(tw);
		xp_trace_free(t);
		xp_buf_release(&b);
	}
}

/* ---- big planes: the rule against a second reading of its definition ---- */

struct span2 {
	int64_t start, end;
	size_t ev;
};

static int by_end2(const void *a, const void *b)
{
	const struct span2 *x = a, *y = b;

	return x->end < y->end ? -1 : x->end > y->end;
}

/* The rule as the header words it: k = 1, 2, ... over the events sorted by end. */
static size_t reference(const struct xp_plane *p, unsigned char *stray)
{
	size_t n = p->nevents, k, i;
	struct span2 *s = malloc(n * sizeof(*s));
	int64_t *pre = malloc(n * sizeof(*pre));
	size_t found = 0;

	memset(stray, 0, n);
	for (i = 0; i < n; i++) {
		s[i].start = p->events[i].start_ps;
		s[i].end = p->events[i].start_ps + p->events[i].dur_ps;
		s[i].ev = i;
	}
	qsort(s, n, sizeof(*s), by_end2);
	for (i = 0; i < n; i++)	/* pre[i]: the smallest start of s[0..i] */
		pre[i] = i && pre[i - 1] < s[i].start ? pre[i - 1] : s[i].start;
	for (k = 1; k <= n / 10 && n - k >= XP_STRAY_MIN_REST && !found; k++) {
		size_t r = n - k, ok = 1;
		int64_t rest_end = s[r - 1].end, rest_start = pre[r - 1];

		if (rest_end - rest_start <= 0)
			continue;
		for (i = r; i < n && ok; i++)
			ok = s[i].start <= rest_end &&
			     (__int128)s[i].end - rest_end > (__int128)XP_STRAY_WINDOWS * (rest_end - rest_start);
		if (ok) {
			for (i = r; i < n; i++)
				stray[s[i].ev] = 1;
			found = k;
		}
	}
	free(s);
	free(pre);
	return found;
}

static uint64_t rng = 88172645463325252ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * Planes of 4,096 to 20,000 events on two lines (past the sampled proof's
 * size): normal work, then k events ending near the mark (10 windows past
 * the others), before or after it, starting inside or after the window;
 * ends in random order. The count and every flag equal the reference's.
 */
/*
 * Plane p read in pieces: its lines summed up (xp_line_spans) from their
 * events moved to line times (line 1 starts trial % 50 ns after line 0), in
 * pieces of random size. The summaries may decide only a plane without
 * stray ends (count, from the exact rule), and then every line's span is
 * its events' exactly. Whether they decided.
 */
static int check_pieces(struct xp_plane *p, size_t count, int trial)
{
	struct xp_line_spans *ls = calloc(p->nlines, sizeof(*ls));
	struct xp_plane_span *sp = calloc(p->nlines, sizeof(*sp));
	struct xp_err err = {0};
	size_t i, j;
	int ret;

	p->base_ns = 0;
	for (i = 0; i < p->nlines; i++) {
		struct xp_line *l = &p->lines[i];
		int64_t delta = (int64_t)i * (trial % 50) * 1000;
		struct xp_event piece[64];

		l->timestamp_ns = (int64_t)i * (trial % 50);
		l->user = &ls[i];
		for (j = 0; j < l->nevents;) {
			size_t k, m = 1 + next_rand() % 64;

			for (k = 0; k < m && j < l->nevents; k++, j++) {
				piece[k] = p->events[l->first_event + j];
				piece[k].start_ps -= delta;
			}
			xp_line_spans_add(&ls[i], piece, k);
		}
	}
	ret = xp_plane_spans_no_stray(p, sp, &err);
	CHECK(ret == 0 || ret == XP_ERR_AGAIN);
	if (!ret) {
		CHECK_INT(count, 0);
		for (i = 0; i < p->nlines; i++) {
			const struct xp_line *l = &p->lines[i];
			int64_t lo = INT64_MAX, hi = INT64_MIN;

			for (j = l->first_event; j < l->first_event + l->nevents; j++) {
				const struct xp_event *e = &p->events[j];

				lo = e->start_ps < lo ? e->start_ps : lo;
				hi = e->start_ps + e->dur_ps > hi ? e->start_ps + e->dur_ps : hi;
			}
			CHECK(sp[i].first_ps == lo && sp[i].last_end_ps == hi);
		}
	}
	for (i = 0; i < p->nlines; i++)
		p->lines[i].user = NULL;
	free(ls);
	free(sp);
	return !ret;
}

/*
 * An empty line whose timestamp is far from the plane's (0 beside epoch
 * times): nothing checks an empty line's time, so the summaries must not
 * compute with it (signed overflow, found by review under UBSan).
 */
static void test_pieces_empty_far_line(void)
{
	struct xp_line lines[2];
	struct xp_line_spans ls[2];
	struct xp_event ev[20];
	struct xp_plane_span sp[2];
	struct xp_plane p;
	struct xp_err err = {0};
	size_t i;

	memset(&p, 0, sizeof(p));
	memset(lines, 0, sizeof(lines));
	memset(ls, 0, sizeof(ls));
	memset(ev, 0, sizeof(ev));
	for (i = 0; i < 20; i++) {
		ev[i].start_ps = (int64_t)i * 1000;
		ev[i].dur_ps = 500;
	}
	xp_line_spans_add(&ls[0], ev, 20);
	lines[0].timestamp_ns = 1700000000000000000LL;
	lines[0].nevents = 20;
	lines[0].user = &ls[0];
	lines[1].timestamp_ns = 0;	/* empty: the base is line 0's */
	lines[1].first_event = 20;
	lines[1].user = &ls[1];
	p.lines = lines;
	p.nlines = 2;
	p.nevents = 20;
	p.base_ns = lines[0].timestamp_ns;
	CHECK_INT(xp_plane_spans_no_stray(&p, sp, &err), 0);
	CHECK_INT(sp[0].first_ps, 0);
	CHECK_INT(sp[0].last_end_ps, 19500);
	CHECK_INT(sp[1].first_ps, 0);
	CHECK_INT(sp[1].last_end_ps, 0);
}

static void test_big_planes(void)
{
	int trial, with = 0, without = 0, decided, any_decided = 0, ordinary = 0, ordinary_decided = 0;

	for (trial = 0; trial < 100; trial++) {
		size_t n = 4096 + next_rand() % 16000, k = next_rand() % 6, i, count = 0, split;
		struct xp_plane p;
		struct xp_line lines[2];
		struct xp_event *ev = calloc(n, sizeof(*ev));
		unsigned char *got = malloc(n), *want = malloc(n);
		int64_t w = 1000000;
		struct xp_err err = {0};

		memset(&p, 0, sizeof(p));
		memset(lines, 0, sizeof(lines));
		for (i = 0; i < n; i++) {
			ev[i].start_ps = (int64_t)(next_rand() % (uint64_t)w);
			ev[i].dur_ps = (int64_t)(next_rand() % 1000);
		}
		for (i = 0; i < k && trial % 3; i++) {	/* every third plane has none */
			size_t at = next_rand() % n;
			/* past the mark (about 11 w) by a little or a lot; before it; or either */
			int64_t mark = w + 10 * w, off = (int64_t)(next_rand() % 1000) + 1;
			int how = trial % 4 == 2 ? (int)(next_rand() % 2) : trial % 4 == 1;

			off = how ? -off * 1000 : trial % 4 == 3 ? off * 1000 : off;
			ev[at].start_ps = trial % 7 == 0 ? w + 10 : (int64_t)(next_rand() % (uint64_t)w);
			ev[at].dur_ps = mark + off - ev[at].start_ps;
			if (ev[at].dur_ps < 0)
				ev[at].dur_ps = 0;
		}
		split = n / 3;
		lines[0].nevents = split;
		lines[1].first_event = split;
		lines[1].nevents = n - split;
		for (i = 0; i < n; i++)
			ev[i].line = i >= split;
		p.loaded = 1;
		p.lines = lines;
		p.nlines = 2;
		p.events = ev;
		p.nevents = n;
		CHECK_INT(xp_plane_stray_ends(&p, NULL, got, &count, &err), 0);
		CHECK_INT(count, reference(&p, want));
		CHECK(!memcmp(got, want, n));
		with += count > 0;
		without += count == 0;
		decided = check_pieces(&p, count, trial);
		ordinary += !k || !(trial % 3);
		ordinary_decided += decided && (!k || !(trial % 3));
		any_decided += decided;
		free(ev);
		free(got);
		free(want);
	}
	CHECK(with >= 10 && without >= 10);	/* both answers were put to the test */
	/* planes without events near the mark are decided from their summaries: no second read */
	CHECK(ordinary >= 20 && ordinary_decided == ordinary);
	printf("big planes: %d with stray ends, %d without, %d decided in pieces (%d of %d ordinary)\n",
	       with, without, any_decided, ordinary_decided, ordinary);
}

int main(void)
{
	test_cluster();
	test_threshold();
	test_exempt();
	test_use_line();
	test_extremes();
	test_big_planes();
	test_pieces_empty_far_line();
	test_readers();
	test_synth_planes();
	test_pieces();
	test_pieces_bad();
	return test_done("test_stray");
}
