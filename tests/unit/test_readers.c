/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The wire reader against the protobuf-c reader, taken as the oracle: on
 * every trace in testdata and SYNTH_DIR, on truncations and byte mutations of
 * a real trace, and on hand-made inputs, both must fail, or both succeed with
 * identical models.
 *
 * The one accepted disagreement is the wire reader rejecting tags that
 * protobuf-c lets through (field number 0 in a multi-byte tag, a field number
 * past 2^29 - 1); see the top of src/xp/xp_read_wire.c.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "model_check.h"
#include "test.h"
#include "test_trace.h"
#include "xp_input.h"
#include "xp_model.h"

/* ---- the oracle ----------------------------------------------------------------- */

enum verdict {
	AGREE_FAIL,
	AGREE_OK,
	WIRE_STRICTER,		/* a documented class: the wire reader rejects, protobuf-c does not */
	DISAGREE,
};

/*
 * The wire reader keeping only some of the events' stats (XP_EVSTATS_KEYS,
 * _NONE), and splitting every plane's lines among 2 and 3 threads, against
 * its model with all of them read by one (tw, NULL if it failed with ew):
 * the same verdict and error, and the same model less those stats. 0 if so.
 */
static int partial_modes_differ(const char *label, const void *buf, size_t len,
				const struct xp_trace *tw, const struct xp_err *ew, int quiet)
{
	static const enum xp_event_stats modes[] = {XP_EVSTATS_KEYS, XP_EVSTATS_NONE, XP_EVSTATS_ALL,
						    XP_EVSTATS_KEYS, XP_EVSTATS_NONE};
	struct xp_trace *none1 = NULL;
	size_t m;
	int bad = 0;

	for (m = 0; m < sizeof(modes) / sizeof(modes[0]) && !bad; m++) {
		/* the last three: lines split among threads (a split past 1 byte of lines) */
		struct xp_read_opts o = {.reader = &xp_reader_wire, .event_stats = modes[m],
					 .jobs = m >= 2 ? (unsigned)m : 1, .split_bytes = 1};
		struct xp_trace *t = NULL;
		struct xp_err e = {0};
		struct model_diff d;
		int r = xp_trace_read_opts(&o, buf, len, &t, &e);

		if (!tw != !!r || (r && strcmp(e.msg, ew->msg))) {
			bad = 1;
			if (!quiet)
				fprintf(stderr, "%s: stats mode %d: %s, with all stats %s\n", label,
					(int)modes[m], r ? e.msg : "accepts", tw ? "accepts" : ew->msg);
		} else if (!r && model_differ_mode(tw, t, modes[m], &d)) {
			bad = 1;
			if (!quiet)
				fprintf(stderr, "%s: stats mode %d: %s\n", label, (int)modes[m], d.msg);
		} else if (!r && modes[m] == XP_EVSTATS_NONE && !none1) {
			none1 = t;	/* one thread's, for the split read below */
			continue;
		} else if (!r && modes[m] == XP_EVSTATS_NONE) {
			/* split: every event as one thread's, stats_first included */
			size_t i;

			for (i = 0; i < t->nplanes && !bad; i++)
				bad = t->planes[i].nevents != none1->planes[i].nevents ||
				      (t->planes[i].nevents &&
				       memcmp(t->planes[i].events, none1->planes[i].events,
					      t->planes[i].nevents * sizeof(*t->planes[i].events)));
			if (bad && !quiet)
				fprintf(stderr, "%s: split read without stats: plane %zu's events differ\n", label, i - 1);
		}
		xp_trace_free(t);
	}
	xp_trace_free(none1);
	return bad;
}

/*
 * The read functions makes (key stats of its mask, host events filtered)
 * on one thread and split among three: the same model, lines' filtered
 * counts and kept keys included. 0 if so.
 */
static int split_filtered_differs(const char *label, const void *buf, size_t len, int quiet)
{
	struct xp_read_opts o = {.reader = &xp_reader_wire, .event_stats = XP_EVSTATS_KEYS,
				 .want_host_event = an_exec_wants_host_event,
				 .host_keys = AN_EXEC_HOST_KEYS, .keys = AN_EXEC_KEYS};
	struct xp_trace *t1 = NULL, *t3 = NULL;
	struct xp_err e1 = {0}, e3 = {0};
	struct model_diff d = {""};
	int r1, r3, bad = 0;
	size_t i, j;

	r1 = xp_trace_read_opts(&o, buf, len, &t1, &e1);
	o.jobs = 3;
	o.split_bytes = 1;
	r3 = xp_trace_read_opts(&o, buf, len, &t3, &e3);
	if (r1 || r3) {
		bad = !r1 != !r3 || strcmp(e1.msg, e3.msg);
		/* the two halves of d.msg, so that two long messages fit */
		snprintf(d.msg, sizeof(d.msg), "%.250s / %.250s", r1 ? e1.msg : "accepts",
			 r3 ? e3.msg : "accepts");
	} else if (model_differ(t1, t3, &d)) {
		bad = 1;
	} else {
		for (i = 0; i < t1->nplanes && !bad; i++) {
			bad = t1->planes[i].kept_keys != t3->planes[i].kept_keys;
			for (j = 0; j < t1->planes[i].nlines && !bad; j++)
				bad = t1->planes[i].lines[j].filtered != t3->planes[i].lines[j].filtered;
		}
		snprintf(d.msg, sizeof(d.msg), "kept keys or filtered counts");
	}
	if (bad && !quiet)
		fprintf(stderr, "%s: split and filtered read: %s\n", label, d.msg);
	xp_trace_free(t1);
	xp_trace_free(t3);
	return bad;
}

/* Decodes with both readers; reports a disagreement under label unless quiet. */
static enum verdict oracle(const char *label, const void *buf, size_t len, int quiet)
{
	struct xp_trace *tp = NULL, *tw = NULL;
	struct xp_err ep = {0}, ew = {0};
	struct model_diff d;
	enum verdict v;
	int rp, rw;

	rp = xp_trace_read(&xp_reader_protobuf_c, buf, len, &tp, &ep);
	rw = xp_trace_read(&xp_reader_wire, buf, len, &tw, &ew);
	if (rp && rw) {
		v = AGREE_FAIL;
	} else if (!rp && !rw) {
		v = model_differ(tp, tw, &d) ? DISAGREE : AGREE_OK;
		if (v == DISAGREE && !quiet)
			fprintf(stderr, "%s: models differ: %s\n", label, d.msg);
		/* Equal, and as xp_model.h promises (indices in range, ids sorted). */
		if (v == AGREE_OK && model_check(tw, &d)) {
			v = DISAGREE;
			if (!quiet)
				fprintf(stderr, "%s: broken model: %s\n", label, d.msg);
		}
	} else if (rw && (strstr(ew.msg, "field number 0") || strstr(ew.msg, "field number past"))) {
		v = WIRE_STRICTER;
	} else {
		v = DISAGREE;
		if (!quiet)
			fprintf(stderr, "%s: protobuf-c %s, wire %s\n", label,
				rp ? ep.msg : "accepts", rw ? ew.msg : "accepts");
	}
	if (v != DISAGREE && partial_modes_differ(label, buf, len, rw ? NULL : tw, &ew, quiet))
		v = DISAGREE;
	if (v != DISAGREE && split_filtered_differs(label, buf, len, quiet))
		v = DISAGREE;
	xp_trace_free(tp);
	xp_trace_free(tw);
	return v;
}

/* ---- every trace on disk -------------------------------------------------------- */

static void oracle_file(const char *path, int expect_ok)
{
	struct xp_buf b;
	enum verdict v;

	if (test_buf_load(path, &b))
		return;
	v = oracle(path, b.data, b.len, 0);
	CHECK(v == AGREE_OK || v == AGREE_FAIL);
	if (expect_ok >= 0 && v != (expect_ok ? AGREE_OK : AGREE_FAIL)) {
		fprintf(stderr, "%s: expected both readers to %s\n", path, expect_ok ? "accept" : "reject");
		test_failures++;
	}
	xp_buf_release(&b);
}

static void test_corpus(void)
{
	const char *dirs[] = {TESTDATA_DIR "/real", SYNTH_DIR};
	struct xp_pathlist l = {0};
	struct xp_err err = {0};
	char path[4096];
	struct dirent *de;
	DIR *dir;
	size_t i, nbad = 0;

	CHECK_INT(xp_pathlist_expand(&l, dirs, 2, &err), 0);
	CHECK(l.n >= 10);
	for (i = 0; i < l.n; i++)
		oracle_file(l.paths[i], 1);
	xp_pathlist_release(&l);

	/* Every file under bad/: the traces must be rejected, the rest (a license) agreed on. */
	dir = opendir(TESTDATA_DIR "/bad");
	CHECK(dir != NULL);
	while (dir && (de = readdir(dir))) {
		size_t n = strlen(de->d_name);
		int trace = n > 10 && !strcmp(de->d_name + n - 10, ".xplane.pb");

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/bad/%s", TESTDATA_DIR, de->d_name);
		oracle_file(path, trace ? 0 : -1);
		nbad += trace;
	}
	if (dir)
		closedir(dir);
	CHECK(nbad >= 1);
}

/*
 * Events' own stats left in the input (XP_EVSTATS_INPUT, as export reads,
 * on 1 and 3 threads with every plane split): xp_event_own_stats gives,
 * event by event, the stats a read keeping them all (XP_EVSTATS_ALL) holds
 * in its pool: the same metadata ids, types and values, strings the same
 * bytes; and the model is otherwise the same.
 */
static size_t same_own_stats_of(const char *path, const void *data, size_t len, unsigned jobs)
{
	struct xp_read_opts all = {.reader = &xp_reader_wire, .event_stats = XP_EVSTATS_ALL};
	struct xp_read_opts in = {.reader = &xp_reader_wire, .event_stats = XP_EVSTATS_INPUT, .jobs = jobs,
				  .split_bytes = 1};
	struct xp_trace *ta = NULL, *ti = NULL;
	struct xp_err err = {0};
	size_t i, k, j, events = 0, stats = 0;

	CHECK_INT(xp_trace_read_opts(&all, data, len, &ta, &err), 0);
	CHECK_INT(xp_trace_read_opts(&in, data, len, &ti, &err), 0);
	for (i = 0; ta && ti && i < ta->nplanes && i < ti->nplanes; i++) {
		const struct xp_plane *pa = &ta->planes[i], *pi = &ti->planes[i];
		struct xp_stat *room = malloc(((size_t)pi->max_own_stats + 1) * sizeof(*room));

		CHECK(pi->nevents == pa->nevents && pi->nevmetas == pa->nevmetas && room);
		CHECK(pi->nevents == 0 || pi->stats_at != NULL);
		for (k = 0; room && k < pa->nevents && k < pi->nevents; k++) {
			const struct xp_event *ea = &pa->events[k], *ei = &pi->events[k];
			const struct xp_stat *sa = xp_event_own_stats(pa, ea, NULL), *si;

			CHECK(ea->start_ps == ei->start_ps && ea->dur_ps == ei->dur_ps && ea->meta == ei->meta &&
			      ea->line == ei->line && ea->nstats == ei->nstats && ei->nstats <= pi->max_own_stats);
			si = xp_event_own_stats(pi, ei, room);
			for (j = 0; j < ea->nstats && j < ei->nstats; j++, stats++) {
				int same = sa[j].meta_id == si[j].meta_id && sa[j].type == si[j].type;

				if (same && (sa[j].type == XP_STAT_STR || sa[j].type == XP_STAT_BYTES))
					same = sa[j].v.s.len == si[j].v.s.len &&
					       (!si[j].v.s.len || !memcmp(sa[j].v.s.p, si[j].v.s.p, si[j].v.s.len));
				else if (same)
					same = sa[j].v.u == si[j].v.u;
				if (!same) {
					fprintf(stderr, "%s: plane %zu event %zu stat %zu differs\n", path, i, k, j);
					test_failures++;
				}
			}
			events++;
		}
		free(room);
	}
	CHECK(!ta || !ti || !memcmp(&ta->counts, &ti->counts, sizeof(ta->counts)));
	CHECK(events > 0);
	xp_trace_free(ta);
	xp_trace_free(ti);
	return stats;
}

static size_t same_own_stats(const char *path, unsigned jobs)
{
	struct xp_buf b;
	size_t stats;

	if (test_buf_load(path, &b))
		return 0;
	stats = same_own_stats_of(path, b.data, b.len, jobs);
	xp_buf_release(&b);
	return stats;
}

static void test_own_stats(void)
{
	static const char *const files[] = {
		TESTDATA_DIR "/real/tpu_v6e_inference.xplane.pb", TESTDATA_DIR "/real/v100_tf_bert.xplane.pb",
		TESTDATA_DIR "/real/mi300x_jax_conv.xplane.pb", SYNTH_DIR "/export.xplane.pb",
		SYNTH_DIR "/export_edges.xplane.pb",
	};
	size_t f, stats = 0;

	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		stats += same_own_stats(files[f], 1);
		stats += same_own_stats(files[f], 3);
	}
	CHECK(stats > 1000);	/* there were stats to compare */
	printf("own stats: %zu compared\n", stats);
}

/* ---- truncations and mutations of a real trace --------------------------------- */

#define SMALL_REAL TESTDATA_DIR "/real/mi300x_jax_gemm.xplane.pb"

static void test_truncations(void)
{
	struct xp_buf b;
	unsigned char *cut;
	char label[64];
	size_t off, n = 0, nok = 0;
	enum verdict v;

	if (test_buf_load(SMALL_REAL, &b))
		return;
	for (off = 0; off < b.len; off++) {
		if (!(off < 64 || off >= b.len - 64 || off % 997 == 0))
			continue;
		/* An exact copy, so that a read past the end is one a sanitizer sees. */
		cut = malloc(off ? off : 1);
		if (!cut)
			abort();
		memcpy(cut, b.data, off);
		snprintf(label, sizeof(label), "truncated at %zu", off);
		v = oracle(label, cut, off, 0);
		free(cut);
		CHECK(v == AGREE_OK || v == AGREE_FAIL);
		nok += v == AGREE_OK;
		n++;
	}
	CHECK(n > 200);
	CHECK(nok >= 1);	/* the empty prefix at least: an XSpace with nothing in it */
	if (getenv("XPS_TEST_VERBOSE"))
		printf("truncations: %zu, both ok at %zu\n", n, nok);
	xp_buf_release(&b);
}

/* Deterministic byte mutations: 1 to 3 bytes set to random values, 600 times. */
static void test_mutations(void)
{
	struct xp_buf b;
	unsigned char *m;
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	size_t i, j, count[4] = {0};
	char label[64];
	enum verdict v;

	if (test_buf_load(SMALL_REAL, &b))
		return;
	m = malloc(b.len);
	CHECK(m != NULL);
	for (i = 0; m && i < 600; i++) {
		memcpy(m, b.data, b.len);
		for (j = 0; j <= i % 3; j++) {
			rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
			m[(rng >> 33) % b.len] = (unsigned char)(rng >> 20);
		}
		snprintf(label, sizeof(label), "mutation %zu", i);
		v = oracle(label, m, b.len, 0);
		count[v]++;
		CHECK(v != DISAGREE);
	}
	if (getenv("XPS_TEST_VERBOSE"))
		printf("mutations: %zu both fail, %zu both ok, %zu wire stricter, %zu disagree\n",
		       count[AGREE_FAIL], count[AGREE_OK], count[WIRE_STRICTER], count[DISAGREE]);
	free(m);
	xp_buf_release(&b);
}

/* ---- hand-made inputs ----------------------------------------------------------- */

struct pb {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct pb *b, const void *data, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->n, data, n);
	b->n += n;
}

static void put_varint(struct pb *b, uint64_t v)
{
	unsigned char c;

	do {
		c = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		put(b, &c, 1);
		v >>= 7;
	} while (v);
}

static void put_tag(struct pb *b, uint32_t field, unsigned wt)
{
	put_varint(b, (uint64_t)field << 3 | wt);
}

static void put_int(struct pb *b, uint32_t field, uint64_t v)
{
	put_tag(b, field, 0);
	put_varint(b, v);
}

static void put_bytes(struct pb *b, uint32_t field, const void *data, size_t n)
{
	put_tag(b, field, 2);
	put_varint(b, n);
	put(b, data, n);
}

static void put_str(struct pb *b, uint32_t field, const char *s)
{
	put_bytes(b, field, s, strlen(s));
}

/* Moves sub into b as field `field`, and empties sub. */
static void put_msg(struct pb *b, uint32_t field, struct pb *sub)
{
	put_bytes(b, field, sub->p, sub->n);
	sub->n = 0;
}

static void put_double(struct pb *b, uint32_t field, double d)
{
	put_tag(b, field, 1);
	put(b, &d, 8);
}

/* Unknown fields of every wire type, when on. */
static int with_unknown;

static void put_unknown(struct pb *b)
{
	static const unsigned char ten[] = {0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
	uint32_t f32 = 7;

	if (!with_unknown)
		return;
	put_int(b, 15, 300);
	put_double(b, 16, 2.5);
	put_str(b, 17, "skip me");
	put_tag(b, 18, 5);
	put(b, &f32, 4);
	put_tag(b, 2047, 0);		/* a two-byte tag, a ten-byte varint */
	put(b, ten, sizeof(ten));
	put_bytes(b, 536870911, "", 0);	/* the largest field number */
}

static void stat_int(struct pb *b, int64_t meta, int64_t v)
{
	put_unknown(b);
	put_int(b, 1, (uint64_t)meta);
	put_int(b, 4, (uint64_t)v);
}

static void statmeta(struct pb *plane, int64_t id, const char *name)
{
	struct pb e = {0}, v = {0};

	put_int(&v, 1, (uint64_t)id);
	put_str(&v, 2, name);
	put_str(&v, 3, "a description");
	put_unknown(&v);
	put_int(&e, 1, (uint64_t)id);
	put_unknown(&e);
	put_msg(&e, 2, &v);
	put_msg(plane, 5, &e);
	free(e.p);
	free(v.p);
}

/*
 * One XSpace that touches every field the model reads: fields out of number
 * order, a duplicate map key, a map value given twice (merged), oneofs set
 * twice, strings with NULs, aggregated events with stats, a missing metadata id.
 */
static void build_space(struct pb *out)
{
	static const unsigned char packed[] = {1, 0x96, 0x01, 3};
	struct pb pl = {0}, ln = {0}, ev = {0}, st = {0}, em = {0}, v = {0};

	/* Plane 1: lines first, then the plane's stats, then the metadata. */
	put_unknown(&pl);
	put_int(&ln, 10, 4);			/* display_id */
	put_str(&ln, 2, "Stream #1");
	put_int(&ln, 3, 1700000000000000000ULL);
	put_int(&ln, 9, 123456);
	put_bytes(&ln, 11, "stream\0one", 10);
	put_int(&ln, 1, 1);
	put_unknown(&ln);
	/* e0: every stat type; meta 10 */
	put_int(&ev, 1, 10);
	put_int(&ev, 2, 5000);
	put_int(&ev, 3, 300);
	put_unknown(&ev);
	put_int(&st, 1, 2);
	put_double(&st, 2, 0.1);
	put_msg(&ev, 4, &st);
	put_int(&st, 1, 2);
	put_int(&st, 3, UINT64_MAX);
	put_msg(&ev, 4, &st);
	stat_int(&st, 2, -5);
	put_msg(&ev, 4, &st);
	put_int(&st, 1, 1);
	put_bytes(&st, 5, "jit_f\0tail", 10);	/* a str stops at its NUL */
	put_msg(&ev, 4, &st);
	put_int(&st, 1, 4);
	put_bytes(&st, 6, "by\0tes", 6);	/* bytes keep every byte */
	put_msg(&ev, 4, &st);
	put_int(&st, 1, 1);
	put_int(&st, 7, 3);			/* a ref */
	put_msg(&ev, 4, &st);
	put_str(&st, 5, "overwritten");		/* oneof: the int wins */
	put_int(&st, 4, 42);
	put_int(&st, 1, 9);
	put_msg(&ev, 4, &st);
	put_int(&st, 1, 3);			/* no value at all */
	put_msg(&ev, 4, &st);
	put_msg(&ln, 4, &ev);
	/* e1: aggregated, with stats that must not enter the pool */
	put_int(&ev, 1, 10);
	stat_int(&st, 2, 1);
	put_msg(&ev, 4, &st);
	put_int(&ev, 2, 100);
	put_int(&ev, 5, 4);
	stat_int(&st, 2, 2);
	put_msg(&ev, 4, &st);
	put_msg(&ln, 4, &ev);
	/* e2: offset, num_occurrences, offset: the last offset wins; missing metadata */
	put_int(&ev, 1, 99);
	put_int(&ev, 2, 7);
	put_int(&ev, 5, 2);
	put_int(&ev, 2, 9000);
	put_int(&ev, 3, 1);
	put_int(&ev, 3, 2);			/* scalars: the last wins */
	put_msg(&ln, 4, &ev);
	/* e3: nothing set: offset 0, metadata 0 (missing) */
	put_msg(&ln, 4, &ev);
	put_msg(&pl, 3, &ln);
	/* a second line, 1 us later, with an event of the merged metadata 11 */
	put_str(&ln, 2, "Stream #2");
	put_int(&ln, 3, 1700000000000001000ULL);
	put_int(&ev, 1, 11);
	put_int(&ev, 2, 1);
	put_int(&ev, 3, 2);
	put_msg(&ln, 4, &ev);
	put_msg(&pl, 3, &ln);
	/* an empty line */
	put_msg(&pl, 3, &ln);

	/* the plane's stats */
	put_int(&st, 1, 1);
	put_str(&st, 5, "plane module");
	put_msg(&pl, 6, &st);
	put_int(&pl, 1, 77);
	put_str(&pl, 2, "/device:GPU:9");
	put_int(&pl, 1, 7);			/* the last id wins */

	/* event metadata 10, with a stat and child ids packed and not */
	put_int(&v, 1, 10);
	put_str(&v, 2, "jit_f(12)");
	put_str(&v, 4, "f");
	put_bytes(&v, 3, "\x01\x02", 2);
	stat_int(&st, 2, 12);
	put_msg(&v, 5, &st);
	put_bytes(&v, 6, packed, sizeof(packed));
	put_int(&v, 6, 5);
	put_unknown(&v);
	put_int(&em, 1, 10);
	put_msg(&em, 2, &v);
	put_msg(&pl, 4, &em);
	/* event metadata 11: the value twice, merged */
	put_str(&v, 2, "old name");
	put_str(&v, 4, "kept display");
	stat_int(&st, 2, 1);
	put_msg(&v, 5, &st);
	put_msg(&em, 2, &v);
	put_int(&em, 1, 11);
	put_str(&v, 2, "new name");
	stat_int(&st, 3, 2);
	put_msg(&v, 5, &st);
	put_msg(&em, 2, &v);
	put_msg(&pl, 4, &em);
	/* a duplicate of 10: the last wins, its stats stay in the pool */
	put_int(&em, 1, 10);
	put_str(&v, 2, "jit_f(12)");
	stat_int(&st, 2, 13);
	put_msg(&v, 5, &st);
	put_msg(&em, 2, &v);
	put_msg(&pl, 4, &em);
	/* an entry with a key only */
	put_int(&em, 1, 12);
	put_msg(&pl, 4, &em);
	statmeta(&pl, 4, "bytes stat");
	statmeta(&pl, 1, "hlo_module");
	statmeta(&pl, 2, "program_id");
	statmeta(&pl, 3, "ref_target");
	statmeta(&pl, 2, "program_id");

	put_str(out, 4, "host-a");
	put_unknown(out);
	put_msg(out, 1, &pl);
	put_str(out, 2, "an error");
	/* Plane 2: a name only. */
	put_str(&pl, 2, "/host:CPU");
	put_msg(out, 1, &pl);
	put_str(out, 3, "a warning");
	put_str(out, 4, "host-b");
	free(pl.p);
	free(ln.p);
	free(ev.p);
	free(st.p);
	free(em.p);
	free(v.p);
}

static void test_handmade(void)
{
	struct pb plain = {0}, unk = {0};
	struct xp_trace *tp = NULL, *tw = NULL;
	struct xp_err err = {0};
	const struct xp_plane *p;
	struct model_diff d;

	build_space(&plain);
	with_unknown = 1;
	build_space(&unk);
	with_unknown = 0;
	CHECK(oracle("hand-made", plain.p, plain.n, 0) == AGREE_OK);
	CHECK(oracle("hand-made with unknown fields", unk.p, unk.n, 0) == AGREE_OK);
	/* every stat type, a str cut at its NUL, oneof overwrites: read again from the input alike */
	CHECK_INT(same_own_stats_of("hand-made", plain.p, plain.n, 1), 8);
	CHECK_INT(same_own_stats_of("hand-made with unknown fields", unk.p, unk.n, 2), 8);

	/* Unknown fields change nothing. */
	CHECK_INT(xp_trace_read(&xp_reader_protobuf_c, plain.p, plain.n, &tp, &err), 0);
	CHECK_INT(xp_trace_read(&xp_reader_wire, unk.p, unk.n, &tw, &err), 0);
	if (tp && tw && model_differ(tp, tw, &d)) {
		fprintf(stderr, "unknown fields changed the model: %s\n", d.msg);
		test_failures++;
	}
	/* A few facts, so that two equally wrong readers do not pass. */
	if (tw) {
		CHECK_INT(tw->nplanes, 2);
		p = &tw->planes[0];
		CHECK_INT(p->id, 7);
		CHECK_STR(p->name, "/device:GPU:9");
		CHECK_INT(p->nlines, 3);
		CHECK_STR(p->lines[0].display_name, "stream");
		CHECK_INT(p->nevents, 4);
		CHECK_INT(p->events[1].start_ps, 9000);
		CHECK_INT(p->events[1].dur_ps, 2);
		CHECK_INT(p->events[3].start_ps, 1000000 + 1);
		CHECK_INT(p->nevmetas, 3);
		CHECK_STR(p->evmetas[1].name, "new name");
		CHECK_STR(p->evmetas[1].display_name, "kept display");
		CHECK_INT(p->evmetas[1].nstats, 2);
		CHECK_INT(p->nstatmetas, 4);
		CHECK_INT(p->events[0].nstats, 8);
		CHECK_INT(p->stats[p->events[0].stats_first + 3].v.s.len, 5);
		CHECK_INT(p->stats[p->events[0].stats_first + 4].v.s.len, 6);
		CHECK_INT(p->stats[p->events[0].stats_first + 6].type, XP_STAT_INT64);
		CHECK_INT(p->stats[p->events[0].stats_first + 7].type, XP_STAT_NONE);
		/* 4 metadata stats (duplicates too), 1 plane stat, 8 event stats */
		CHECK_INT(p->nstats, 13);
		CHECK_INT(p->npstats, 1);
		CHECK_INT(tw->counts.aggregated_events, 1);
		CHECK_INT(p->naggs, 1);
		CHECK_INT(p->aggs[0].occurrences, 4);
		CHECK_INT(p->aggs[0].dur_ps, 0);
		CHECK_INT(p->aggs[0].line, 0);
		CHECK_INT(p->lines[0].naggs, 1);
		CHECK_INT(tw->counts.events_missing_metadata, 2);
		CHECK_INT(tw->counts.duplicate_metadata, 2);
		CHECK_INT(tw->nhostnames, 2);
		CHECK_STR(tw->hostnames[1], "host-b");
		CHECK_STR(tw->planes[1].name, "/host:CPU");
	}
	xp_trace_free(tp);
	xp_trace_free(tw);
	free(plain.p);
	free(unk.p);
}

/*
 * Expects the wire reader to reject buf with reason, and protobuf-c to reject
 * it too if pbc is 0 (accept it if 1, either if -1: versions differ there).
 */
static void check_rejected(const char *label, const void *buf, size_t len, const char *reason,
			   int pbc)
{
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	int ret = xp_trace_read(&xp_reader_wire, buf, len, &t, &err);

	/* every protobuf error says where; JSON is named as what it is */
	if (ret != XP_ERR_FORMAT || (!strstr(err.msg, "at byte ") && !strstr(err.msg, "JSON")) ||
	    !strstr(err.msg, reason)) {
		fprintf(stderr, "%s: wire reader returned %d '%s', expected '%s'\n", label, ret,
			err.msg, reason);
		test_failures++;
	}
	xp_trace_free(t);
	memset(&err, 0, sizeof(err));
	ret = xp_trace_read(&xp_reader_protobuf_c, buf, len, &t, &err);
	if (pbc >= 0 && (ret == 0) != pbc) {
		fprintf(stderr, "%s: protobuf-c %s it\n", label, ret ? "rejects" : "accepts");
		test_failures++;
	}
	if (strstr(reason, "JSON") && !strstr(err.msg, reason)) {
		fprintf(stderr, "%s: protobuf-c says '%s', expected '%s'\n", label, err.msg, reason);
		test_failures++;
	}
	xp_trace_free(t);
}

static void test_malformed(void)
{
#define REJECT(label, reason, pbc, ...)                                                 \
	do {                                                                            \
		static const unsigned char b_[] = {__VA_ARGS__};                        \
		check_rejected(label, b_, sizeof(b_), reason, pbc);                     \
	} while (0)
	REJECT("11-byte varint", "varint longer than 10 bytes", 0,
	       0x78, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
	REJECT("truncated varint", "truncated varint", 0, 0x78, 0xff);
	/* past the end of the input itself: cut short */
	REJECT("length past the end", "the input ends early", 0, 0x22, 0x05, 'a', 'b');
	REJECT("huge length", "the input ends early", 0, 0x22, 0xff, 0xff, 0xff, 0xff, 0x0f, 'a');
	REJECT("6-byte length prefix", "length prefix longer than 5 bytes", 0,
	       0x22, 0x81, 0x80, 0x80, 0x80, 0x80, 0x00, 'a');
	REJECT("6-byte tag", "tag longer than 5 bytes", 0, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x0f, 0);
	REJECT("start group", "group wire type", 0, 0x7b, 0x7c);
	/* a Chrome trace: JSON, named so whichever reader refused it */
	REJECT("json object", "JSON (a Chrome trace", -1, ' ', '{', '"', 't', '"', ':', '1', '}');
	REJECT("json array", "JSON (a Chrome trace", -1, '[', ' ', '{', '}', ']');
	REJECT("end group", "group wire type", 0, 0x7c);
	REJECT("wire type 6", "invalid wire type", 0, 0x7e, 0);
	REJECT("wire type 7", "invalid wire type", 0, 0x7f, 0);
	REJECT("truncated fixed64", "truncated fixed64", 0, 0x79, 1, 2, 3);
	REJECT("truncated fixed32", "truncated fixed32", 0, 0x7d, 1, 2, 3);
	REJECT("field 0", "field number 0", -1, 0x00, 0x01);
	/* a plane that holds a line whose length runs past the plane, not the buffer */
	REJECT("nested length", "length past the end", 0,
	       0x0a, 0x03, 0x1a, 0x04, 0x08, 0x22, 0x01, 'x');
	REJECT("hostname as varint", "wrong wire type for field 4", 0, 0x20, 0x01);
	REJECT("plane name as varint", "wrong wire type for field 2", 0, 0x0a, 0x02, 0x10, 0x01);
	/* XStat.double_value as a varint, in the plane's stats */
	REJECT("double as varint", "wrong wire type for field 2", 0,
	       0x0a, 0x04, 0x32, 0x02, 0x10, 0x01);
	/* XEventMetadata.child_id as fixed64 */
	REJECT("child_id fixed64", "wrong wire type for field 6", 0,
	       0x0a, 0x0d, 0x22, 0x0b, 0x12, 0x09, 0x31, 1, 2, 3, 4, 5, 6, 7, 8);
	REJECT("child_id packed, truncated", "truncated varint", 0,
	       0x0a, 0x07, 0x22, 0x05, 0x12, 0x03, 0x32, 0x01, 0x80);
	/* an unknown group deep inside an event's stat */
	REJECT("group in a stat", "group wire type", 0,
	       0x0a, 0x08, 0x1a, 0x06, 0x22, 0x04, 0x22, 0x02, 0x7b, 0x7c);
	/* Stricter than protobuf-c (see the top of src/xp/xp_read_wire.c). */
	REJECT("field 0, two-byte tag", "field number 0", -1, 0x80, 0x00, 0x01);
	REJECT("field past 2^29 - 1", "field number past", -1,
	       0xa2, 0x80, 0x80, 0x80, 0x10, 0x01, 'x');
#undef REJECT
}

int main(void)
{
	test_corpus();
	test_own_stats();
	test_truncations();
	test_mutations();
	test_handmade();
	test_malformed();
	return test_done("test_readers");
}
