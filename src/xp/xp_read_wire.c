/* SPDX-License-Identifier: Apache-2.0 */
/* The wire reader's trace: the XSpace's own fields, its planes decoded on threads or on demand. */

/*
 * The fast reader: walks the protobuf wire format of an XSpace directly,
 * with no intermediate message tree. A plane's top-level fields are counted
 * first (lines, metadata, the plane's stats: sizes for their arrays), then
 * its metadata and stats decoded, then its lines' events in one pass into
 * growing blocks (xp_arena_block_grow) sized from the lines' bytes. A big
 * plane's lines are shared out among the jobs (xp_wire_fill_split). What a
 * command does not use is walked and checked but not kept (xp_read_opts:
 * lines, event stats, host events), and the pages of a mapped input are
 * dropped as they are read.
 *
 * It fills the same model as the protobuf-c reader, field for field
 * (tests/unit/test_readers.c holds the two against each other), following
 * proto3: the last of a repeated scalar wins, the last member of a oneof
 * wins, repeated fields accumulate, a map entry's value given twice is
 * merged (its strings: the last wins; its stats: concatenated). Strings
 * stop at their first NUL, as the C strings protobuf-c hands out do; bytes
 * keep every byte.
 *
 * Where the two readers disagree on what is malformed, this one rejects
 * what no protobuf writer emits and protobuf-c lets through:
 *  - field number 0 (protobuf-c rejects it only in a one-byte tag);
 *  - a tag over 32 bits, i.e. a field number past 2^29 - 1 (protobuf-c drops
 *    the high bits and skips the field as unknown).
 * Both reject: varints over 10 bytes, tags or length prefixes over 5 bytes,
 * lengths past the enclosing message, groups and wire types 6 and 7, and a
 * known field with the wrong wire type.
 *
 * A malformed input is rejected when the walk reaches the fault, so when an
 * earlier plane also fails a model check (a negative duration, say), that is
 * the error reported, where protobuf-c reports the malformed bytes.
 *
 * Its files: xp_wire.h the wire primitives; xp_read_wire.c the trace (the
 * XSpace's fields, planes on threads, deferred planes); _plane.c one plane
 * (what it keeps, its passes, whole or in pieces); _count.c the counting
 * pass; _fill.c the filling pass; _split.c a big plane's lines on several
 * threads; _stats.c an event's stats left in the input.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "xp_read_wire.h"

/* Where each XPlane message lies in the input: kept for planes read later. */
struct plane_range {
	const uint8_t *start, *end;
};

/* Planes to decode, shared by the threads that decode them. */
struct plane_job {
	const uint8_t *base, *limit;
	const struct xp_read_opts *o;	/* want_lines; NULL: every line */
	struct xp_plane *planes;
	const struct plane_range *ranges;
	const size_t *todo;		/* plane indexes */
	const size_t *order;		/* todo entries, biggest plane first */
	size_t ntodo;
	size_t next;			/* next todo entry to take (atomic) */
	unsigned split_busy;		/* threads splitting planes now (xp_wire_fill_split) */
	int *rets;			/* per todo entry */
	struct xp_err *errs;		/* per todo entry */
};

struct plane_worker {
	struct plane_job *job;
	struct xp_arena arena;		/* merged into the trace's when done */
	struct xp_read_counts counts;	/* added to the trace's */
	pthread_t thread;
};

static void *plane_worker_run(void *arg)
{
	struct plane_worker *w = arg;
	struct plane_job *j = w->job;
	struct rd r = {.w = {.base = j->base, .limit = j->limit}, .arena = &w->arena,
		       .counts = &w->counts, .o = j->o,
		       .mode = j->o ? j->o->event_stats : XP_EVSTATS_ALL, .split_busy = &j->split_busy};
	size_t k;

	while ((k = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < j->ntodo) {
		size_t i;

		k = j->order[k];
		i = j->todo[k];

		r.w.err = &j->errs[k];
		j->rets[k] = xp_wire_read_plane(&r, j->ranges[i].start, j->ranges[i].end, &j->planes[i]);
		if (j->o && j->o->input_mapped && j->o->event_stats != XP_EVSTATS_INPUT)
			xp_wire_drop_pages(j->ranges[i].start, j->ranges[i].end);
	}
	xp_arena_block_free(r.spare);
	free(r.piece);
	return NULL;
}


/* A todo entry and its plane's bytes, to sort the biggest first (ties: todo order). */
struct by_size {
	size_t bytes, k;
};

static int by_bytes(const void *a, const void *b)
{
	const struct by_size *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/*
 * Decodes the planes todo[0..n) on up to `jobs` threads (the caller's among
 * them), the biggest first: the last plane taken is a small one, so threads
 * finish together (a TPU trace's host plane, last in the file, holds most of
 * its events). The model does not depend on the number of threads or that
 * order: each plane is decoded whole by one thread, and the error reported
 * is that of the first failing plane in todo order, as a single thread
 * would report it.
 */
static int decode_planes(struct xp_trace *t, const struct plane_range *ranges, const size_t *todo,
			 size_t n, unsigned jobs, const struct xp_read_opts *o, struct xp_err *err)
{
	struct plane_job j = {
		.base = t->buf_, .limit = (const uint8_t *)t->buf_ + t->len_, .o = o,
		.planes = t->planes, .ranges = ranges, .todo = todo, .ntodo = n,
	};
	struct plane_worker *w;
	size_t *order = NULL;
	struct by_size *sizes = NULL;
	size_t k, nw = jobs > 1 ? jobs : 1, started = 1;
	int ret = 0;

	if (!n)
		return 0;
	if (nw > n)
		nw = n;
	w = calloc(nw, sizeof(*w));
	j.rets = calloc(n, sizeof(*j.rets));
	j.errs = calloc(n, sizeof(*j.errs));
	order = malloc(n * sizeof(*order));
	sizes = malloc(n * sizeof(*sizes));
	if (!w || !j.rets || !j.errs || !order || !sizes) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < n; k++) {
		sizes[k].bytes = (size_t)(ranges[todo[k]].end - ranges[todo[k]].start);
		sizes[k].k = k;
	}
	if (nw > 1)
		qsort(sizes, n, sizeof(*sizes), by_bytes);
	for (k = 0; k < n; k++)
		order[k] = sizes[k].k;
	j.order = order;
	for (k = 0; k < nw; k++) {
		w[k].job = &j;
		xp_arena_init(&w[k].arena);
	}
	/* Threads that cannot start leave their share to those that did. */
	for (k = 1; k < nw; k++) {
		if (pthread_create(&w[k].thread, NULL, plane_worker_run, &w[k]))
			break;
		started++;
	}
	plane_worker_run(&w[0]);
	for (k = 1; k < started; k++)
		pthread_join(w[k].thread, NULL);
	for (k = 0; k < nw; k++) {
		xp_arena_adopt(&t->arena, &w[k].arena);
		add_counts(&t->counts, &w[k].counts);
	}
	for (k = 0; k < n && !ret; k++) {
		if (j.rets[k]) {
			ret = j.rets[k];
			*err = j.errs[k];
		}
	}
out:
	free(w);
	free(j.rets);
	free(j.errs);
	free(order);
	free(sizes);
	return ret;
}

static int wire_read(const void *buf, size_t len, const struct xp_read_opts *o, struct xp_trace *t,
		     struct xp_err *err)
{
	const uint8_t *start = buf, *end = start + len, *p, *s, *at;
	struct xp_read_counts counts = {0};
	struct rd r = {.w = {.base = start, .limit = end, .err = err}, .arena = &t->arena,
		       .counts = &counts};
	/* Indexed by field number: 1 planes, 2 errors, 3 warnings, 4 hostnames. */
	const char **strs[5] = {NULL};
	size_t n[5] = {0}, k[5] = {0}, *todo = NULL, ntodo = 0, i;
	struct plane_range *ranges = NULL;
	uint32_t f;
	unsigned wt;
	int ret = 0, pass;

	/* Pass 0 counts what the XSpace holds, pass 1 takes its strings and plane ranges. */
	for (pass = 0; pass < 2; pass++) {
		p = start;
		while (p < end) {
			at = p;
			p = wire_tag(&r.w, p, end, &f, &wt);
			if (p && f > 4)
				p = wire_skip(&r.w, p, end, wt);
			else if (p)
				p = wire_len_field(&r.w, p, end, at, f, wt, &s);
			if (!p)
				return XP_ERR_FORMAT;
			if (pass == 0) {
				n[f > 4 ? 0 : f]++;
			} else if (f == 1) {
				ranges[k[1]].start = s;
				ranges[k[1]++].end = p;
			} else if (f <= 4) {
				strs[f][k[f]] = xp_wire_name_copy(&r, s, p);
				if (!strs[f][k[f]++])
					return nomem(&r);
			}
		}
		if (pass == 0) {
			t->planes = alloc_array(&t->arena, n[1], sizeof(*t->planes));
			ranges = alloc_array(&t->arena, n[1], sizeof(*ranges));
			for (f = 2; f <= 4; f++)
				strs[f] = alloc_array(&t->arena, n[f], sizeof(*strs[f]));
			if (!t->planes || !ranges || !strs[2] || !strs[3] || !strs[4])
				return nomem(&r);
		}
	}
	t->nplanes = n[1];
	t->errors = strs[2];
	t->nerrors = n[2];
	t->warnings = strs[3];
	t->nwarnings = n[3];
	t->hostnames = strs[4];
	t->nhostnames = n[4];
	t->lazy_ = ranges;
	todo = malloc((n[1] + 1) * sizeof(*todo));
	if (!todo)
		return nomem(&r);
	for (i = 0; i < n[1]; i++) {
		if (o->want_plane) {
			ret = xp_wire_plane_header(&r, ranges[i].start, ranges[i].end, &t->planes[i]);
			if (ret)
				goto out;
			if (!o->want_plane(t->planes[i].name, o->want_ctx))
				continue;
		}
		todo[ntodo++] = i;
	}
	ret = decode_planes(t, ranges, todo, ntodo, o->jobs, o, err);
out:
	add_counts(&t->counts, &counts);
	free(todo);
	return ret;
}

static int wire_load_plane(struct xp_trace *t, size_t i, struct xp_err *err)
{
	struct xp_plane deferred = t->planes[i];
	struct xp_read_opts o = {.event_stats = t->event_stats_, .input_mapped = t->input_mapped_,
				 .want_host_event = t->load_want_host_event_ ? t->load_want_host_event_
										   : t->want_host_event_,
				 .host_keys = t->load_want_host_event_ ? t->load_host_keys_ : t->host_keys_,
				 .jobs = t->jobs_, .split_bytes = t->split_bytes_, .keys = t->keys_,
				 .want_lines = t->load_want_lines_, .want_ctx = t->load_want_ctx_};
	int ret;

	/* A plane read on demand is read whole (but lines want_lines leaves out); if it fails, it stays deferred. */
	ret = decode_planes(t, t->lazy_, &i, 1, 1, &o, err);
	if (ret)
		t->planes[i] = deferred;
	return ret;
}

static size_t wire_plane_bytes(const struct xp_trace *t, size_t i)
{
	const struct plane_range *r = t->lazy_;

	return r ? (size_t)(r[i].end - r[i].start) : 0;
}

const struct xp_reader xp_reader_wire = {
	.name = "wire",
	.read = wire_read,
	.load_plane = wire_load_plane,
	.plane_bytes = wire_plane_bytes,
};
