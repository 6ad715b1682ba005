/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_gen: deterministic large inputs for tools/bench.
 *
 *   bench_gen IN OUT TARGET_MB
 *   bench_gen IN OUT --copies N [--new-ids]
 *
 * Reads the XSpace IN and writes OUT in which every line's events are
 * repeated k times, copy j shifted by j times the plane's time span (plus a
 * gap), so the result is the same shape as IN, about TARGET_MB large, with
 * executions that never overlap. Stats are shared between copies.
 *
 * With --copies, exactly N copies, and every plane shifted alike (by the
 * largest plane span plus a gap), so a GPU trace's host launches stay with
 * their kernels: the file of a trace repeated with its correlation ids kept,
 * or with --new-ids each copy's ids moved past the previous copy's (as one
 * long profile of the same work would number them).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xplane_pb.h"


static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("bench_gen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f)
		die("%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die("%s: cannot size", path);
	buf = xmalloc((size_t)n);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		die("%s: short read", path);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Allocations for new ids, freed at the end. */
static void **owned;
static size_t nowned, capowned;

static void *own(void *p)
{
	if (nowned == capowned) {
		capowned = capowned ? 2 * capowned : 1024;
		owned = realloc(owned, capowned * sizeof(*owned));
		if (!owned)
			die("out of memory");
	}
	return owned[nowned++] = p;
}

/* The plane's stat metadata id named correlation_id, or -1. */
static int64_t corr_id(const XPlane *p)
{
	size_t i;

	for (i = 0; i < p->n_stat_metadata; i++)
		if (p->stat_metadata[i]->value && p->stat_metadata[i]->value->name &&
		    !strcmp(p->stat_metadata[i]->value->name, "correlation_id"))
			return p->stat_metadata[i]->key;
	return -1;
}

/* The event's integer correlation_id stat, or NULL. */
static XStat *corr_stat(const XEvent *e, int64_t id)
{
	size_t i;

	for (i = 0; id >= 0 && i < e->n_stats; i++)
		if (e->stats[i]->metadata_id == id &&
		    (e->stats[i]->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE ||
		     e->stats[i]->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE))
			return e->stats[i];
	return NULL;
}

/* Copy c of an event (copy k) with its correlation_id raised by k * step. */
static void shift_corr(XEvent *c, int64_t id, size_t k, uint64_t step)
{
	XStat *s = corr_stat(c, id), **v, *n;
	size_t i;

	if (!s)
		return;
	v = own(xmalloc(c->n_stats * sizeof(*v)));
	n = own(xmalloc(sizeof(*n)));
	*n = *s;
	n->uint64_value += (uint64_t)k * step;	/* the union's integer either way */
	for (i = 0; i < c->n_stats; i++)
		v[i] = c->stats[i] == s ? n : c->stats[i];
	c->stats = v;
}

/* The plane's events from first start to last end, in ps (line timestamps included). */
static int64_t plane_span_ps(const XPlane *p)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t i, j;

	for (i = 0; i < p->n_lines; i++) {
		const XLine *l = p->lines[i];

		for (j = 0; j < l->n_events; j++) {
			int64_t s = (l->timestamp_ns - p->lines[0]->timestamp_ns) * 1000 + l->events[j]->offset_ps;

			if (s < lo)
				lo = s;
			if (s + l->events[j]->duration_ps > hi)
				hi = s + l->events[j]->duration_ps;
		}
	}
	return hi > lo ? hi - lo : 0;
}

int main(int argc, char **argv)
{
	size_t len, i, j, k, reps, out_len;
	unsigned char *in, *out;
	XSpace *sp;
	XEvent ****orig;
	FILE *f;

	int aligned = argc >= 5 && !strcmp(argv[3], "--copies");
	int new_ids = aligned && argc == 6 && !strcmp(argv[5], "--new-ids");
	int64_t common = 0;
	uint64_t step = 0;

	if (argc != 4 && !(aligned && (argc == 5 || new_ids))) {
		fprintf(stderr, "usage: bench_gen IN OUT TARGET_MB | bench_gen IN OUT --copies N [--new-ids]\n");
		return 2;
	}
	in = slurp(argv[1], &len);
	sp = tensorflow__profiler__xspace__unpack(NULL, len, in);
	if (!sp)
		die("%s: not a valid XSpace", argv[1]);
	/* size(k) ~ len + (k - 1) * event_bytes: solve for the target. */
	{
		double ev_bytes = 0, target = atof(argv[3]) * 1e6;

		for (i = 0; i < sp->n_planes; i++)
			for (j = 0; j < sp->planes[i]->n_lines; j++)
				for (k = 0; k < sp->planes[i]->lines[j]->n_events; k++)
					ev_bytes += (double)tensorflow__profiler__xevent__get_packed_size(
							    sp->planes[i]->lines[j]->events[k]) + 3;
		reps = ev_bytes > 0 && target > (double)len ? (size_t)((target - (double)len) / ev_bytes + 1.5) : 1;
	}
	if (aligned) {
		reps = (size_t)strtoul(argv[4], NULL, 10);
		if (!reps)
			die("--copies wants a positive count");
		for (i = 0; i < sp->n_planes; i++)
			if (plane_span_ps(sp->planes[i]) > common)
				common = plane_span_ps(sp->planes[i]);
		/* new ids: each copy's past the largest id of the file */
		for (i = 0; new_ids && i < sp->n_planes; i++) {
			int64_t id = corr_id(sp->planes[i]);

			for (j = 0; id >= 0 && j < sp->planes[i]->n_lines; j++)
				for (k = 0; k < sp->planes[i]->lines[j]->n_events; k++) {
					XStat *c = corr_stat(sp->planes[i]->lines[j]->events[k], id);

					if (c && c->uint64_value >= step)
						step = c->uint64_value + 1;
				}
		}
	}
	orig = xmalloc(sp->n_planes * sizeof(*orig));
	for (i = 0; i < sp->n_planes; i++) {
		XPlane *p = sp->planes[i];
		int64_t shift = (aligned ? common : plane_span_ps(p)) + 1000000;	/* +1 us gap */
		int64_t cid = new_ids ? corr_id(p) : -1;

		orig[i] = xmalloc((p->n_lines + 1) * sizeof(**orig));
		for (j = 0; j < p->n_lines; j++) {
			XLine *l = p->lines[j];
			XEvent **ev = xmalloc(l->n_events * reps * sizeof(*ev) + 1);
			/* one block for the copies, freed through ev[n] (none for one copy) */
			XEvent *copies = reps > 1 && l->n_events
						 ? xmalloc(l->n_events * (reps - 1) * sizeof(*copies) + 1) : NULL;
			size_t n = l->n_events, e;

			orig[i][j] = l->events;
			memcpy(ev, l->events, n * sizeof(*ev));
			for (k = 1; k < reps; k++) {
				for (e = 0; e < n; e++) {
					XEvent *c = &copies[(k - 1) * n + e];

					*c = *l->events[e];
					if (c->data_case == TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS)
						c->offset_ps += (int64_t)k * shift;
					if (cid >= 0)
						shift_corr(c, cid, k, step);
					ev[k * n + e] = c;
				}
			}
			l->events = ev;
			l->n_events = n * reps;
		}
	}
	out_len = tensorflow__profiler__xspace__get_packed_size(sp);
	out = xmalloc(out_len);
	tensorflow__profiler__xspace__pack(sp, out);
	f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, out_len, f) != out_len || fclose(f))
		die("%s: %s", argv[2], strerror(errno));
	fprintf(stderr, "bench_gen: %s: %zu copies, %.1f MB\n", argv[2], reps, out_len / 1e6);
	/* Put the original event arrays back so protobuf-c frees what it allocated. */
	for (i = 0; i < sp->n_planes; i++) {
		for (j = 0; j < sp->planes[i]->n_lines; j++) {
			XLine *l = sp->planes[i]->lines[j];
			size_t n = l->n_events / reps;

			if (reps > 1 && n)
				free(l->events[n]);	/* the copies block starts there */
			free(l->events);
			l->events = orig[i][j];
			l->n_events = n;
		}
		free(orig[i]);
	}
	free(orig);
	for (i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	tensorflow__profiler__xspace__free_unpacked(sp, NULL);
	free(out);
	free(in);
	return 0;
}
