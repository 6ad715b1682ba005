/* SPDX-License-Identifier: Apache-2.0 */
#include "an_overview.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_corr.h"
#include "an_cpu.h"
#include "an_exec.h"
#include "an_group.h"
#include "an_kernels.h"
#include "an_kind.h"
#include "an_stats.h"
#include "xp_sat.h"
#include "xp_sort.h"
#include "xp_stray.h"

void an_ov_init(struct an_ov_result *r)
{
	memset(r, 0, sizeof(*r));
	xp_arena_init(&r->arena);
	an_strag_init(&r->strag);
}

void an_ov_init_opts(struct an_ov_result *r, const struct an_ov_opts *o)
{
	an_ov_init(r);
	r->stragglers = o && o->stragglers;
	r->want_steps = o && o->steps;
	r->strag.run_by = o ? o->run_by : 0;
}

int an_ov_notes(const struct an_ov_result *r, struct xp_notes *notes)
{
	if (!r->strag_left_out)
		return 0;
	return xp_notes_add(notes, "%zu input%s left out of the stragglers (the last: %s)", r->strag_left_out,
			    r->strag_left_out == 1 ? "" : "s", r->strag_why) < 0 ? XP_ERR_NOMEM : 0;
}

/* An input left out of the stragglers (ret, e): counted, its reason kept (the last); -1 when out of memory. */
static int strag_done(struct an_ov_result *r, int ret, const struct xp_err *e)
{
	if (ret == XP_ERR_NOMEM)
		return -1;
	if (ret) {
		r->strag_left_out++;
		snprintf(r->strag_why, sizeof(r->strag_why), "%.150s", e->msg);
	}
	return 0;
}

int an_ov_strag_add(struct an_ov_result *r, const struct xp_trace *t, const struct an_exec_list *l)
{
	return an_ov_strag_add_input(r, t, l, NULL);
}

int an_ov_strag_add_input(struct an_ov_result *r, const struct xp_trace *t, const struct an_exec_list *l,
			  const char *input)
{
	struct xp_err e = {0};

	return strag_done(r, an_strag_add_input(&r->strag, t, l, input, &e), &e);
}

/* The input's executions found, into the stragglers. */
static int add_strag(struct an_ov_result *r, struct xp_trace *t, const char *input, const char *device)
{
	struct an_exec_opts xo = {.device = device};
	struct an_exec_list l;
	struct xp_err e = {0};
	int ret;

	if ((ret = an_exec_find(t, &xo, &l, &e)))
		return strag_done(r, ret, &e);
	ret = an_ov_strag_add_input(r, t, &l, input);
	an_exec_list_release(&l);
	return ret;
}

void an_ov_release(struct an_ov_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->devices[i].steps.v);
		free(r->devices[i].latency.v);
		free(r->devices[i].queue.v);
		free(r->devices[i].overhead.v);
	}
	free(r->devices);
	free(r->host_steps.v);
	free(r->host_only_steps.v);
	free(r->steps);
	free(r->aligned);
	an_strag_release(&r->strag);
	xp_arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}

static int dist_push(struct an_ov_dist *d, double v)
{
	if (xp_grow(&d->v, &d->cap, d->n, sizeof(*d->v), 64))
		return -1;
	d->v[d->n++] = v;
	return 0;
}

static void dist_finish(struct an_ov_dist *d)
{
	struct an_summary s;
	size_t rank;

	if (an_summarize(d->v, d->n, 0, &s))
		return;
	d->mean = s.mean;
	d->median = s.median;
	d->min = s.min;
	d->max = s.max;
	rank = (size_t)ceil(0.99 * (double)d->n);	/* an_summarize sorted v */
	d->p99 = d->v[(rank ? rank : 1) - 1];
}

static int cmp_iv(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/*
 * By start. Events come line by line, mostly in time order: sorted input is
 * left as it is; else a radix sort, and if it has no memory, qsort in place.
 */
static void sort_iv(int64_t (*iv)[2], size_t n)
{
	size_t i;

	for (i = 1; i < n && iv[i][0] >= iv[i - 1][0]; i++)
		;
	if (i < n && xp_sort_by_i64(iv, n, sizeof(*iv), 0))
		qsort(iv, n, sizeof(*iv), cmp_iv);
}

size_t an_ov_merge(int64_t (*iv)[2], size_t n)
{
	size_t i, k = 0;

	if (!n)
		return 0;
	sort_iv(iv, n);
	for (i = 1; i < n; i++) {
		if (iv[i][0] <= iv[k][1]) {
			if (iv[i][1] > iv[k][1])
				iv[k][1] = iv[i][1];
		} else {
			k++;
			iv[k][0] = iv[i][0];
			iv[k][1] = iv[i][1];
		}
	}
	return k + 1;
}

/* The length of merged intervals a (sorted) within [s, e). */
static int64_t len_within(const int64_t (*a)[2], size_t n, int64_t s, int64_t e)
{
	size_t lo = 0, hi = n;
	int64_t t = 0;

	while (lo < hi) {	/* the first interval ending after s */
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid][1] <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && a[lo][0] < e; lo++)
		t = xp_sat_add(t, xp_sat_sub(a[lo][1] < e ? a[lo][1] : e, a[lo][0] > s ? a[lo][0] : s));
	return t;
}

static int64_t len_of(const int64_t (*a)[2], size_t n)
{
	int64_t t = 0;
	size_t i;

	for (i = 0; i < n; i++)
		t = xp_sat_add(t, xp_sat_sub(a[i][1], a[i][0]));
	return t;
}

int64_t an_ov_minus(const int64_t (*a)[2], size_t na, const int64_t (*b)[2], size_t nb)
{
	int64_t overlap = 0;
	size_t i = 0, j = 0;

	while (i < na && j < nb) {
		int64_t lo = a[i][0] > b[j][0] ? a[i][0] : b[j][0];
		int64_t hi = a[i][1] < b[j][1] ? a[i][1] : b[j][1];

		if (hi > lo)
			overlap = xp_sat_add(overlap, xp_sat_sub(hi, lo));
		if (a[i][1] < b[j][1])
			i++;
		else
			j++;
	}
	overlap = xp_sat_sub(len_of(a, na), overlap);
	return overlap > 0 ? overlap : 0;
}

/* Interval sets of one plane. */
struct ivs {
	int64_t (*v)[2];
	size_t n;
};

static size_t line_named(const struct xp_plane *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nlines; i++)
		if (!strcmp(p->lines[i].name, name))
			return i;
	return SIZE_MAX;
}

/* The work lines of p (use 1), the span-only lines (2), the Steps line (3). */
static int pick_lines(const struct xp_plane *p, unsigned char *use, int *tpu, int *kernels)
{
	size_t i, ops = line_named(p, "XLA Ops"), mods = line_named(p, "XLA Modules");
	size_t steps = line_named(p, "Steps"), n = 0;

	if (an_is_sparsecore_plane(p->name)) {	/* its lines named so */
		ops = line_named(p, "Sparse Core Ops");
		mods = line_named(p, "Sparse Core Modules");
		steps = line_named(p, "Sparse Core Steps");
	}
	int module_line;

	*tpu = 0;
	*kernels = 0;
	memset(use, 0, p->nlines);
	if (!strncmp(p->name, "/device:TPU:", 12) && ops != SIZE_MAX) {
		*tpu = 1;
		use[ops] = 1;
		if (mods != SIZE_MAX)
			use[mods] = 2;
	} else {
		for (i = 0; i < p->nlines; i++)
			if (!strncmp(p->lines[i].name, "Stream #", 8))
				use[i] = 1, n++;
		*kernels = n > 0;
		if (!n) {
			const char **names = xp_malloc_big(p->nlines + 1, sizeof(*names));

			if (!names)
				return -1;
			for (i = 0; i < p->nlines; i++)
				names[i] = p->lines[i].name;
			an_device_lines(names, p->nlines, use, &module_line);
			free(names);
			*kernels = module_line < 0;	/* a module line is executions, not kernels */
		}
	}
	if (steps != SIZE_MAX && !use[steps])
		use[steps] = 3;
	return 0;
}

/*
 * Collective or not, by name and by stat, asked once per event metadata:
 * memo[3 * meta + what] is -1 until known. A stat of the event's own is
 * looked at each time; only its metadata's answers are kept.
 */
enum { M_NAME, M_DN, M_STAT };

static int memo_collective(signed char *memo, uint32_t meta, int what, const char *s)
{
	signed char *m = &memo[3 * (size_t)meta + (size_t)what];

	if (*m < 0)
		*m = (signed char)(s && s[0] && an_is_collective(s));
	return *m;
}

static int stat_collective(const struct xp_plane *p, const struct xp_event *e, enum xp_key k,
			   signed char *memo)
{
	const struct xp_stat *s = xp_event_stat(p, e, k);
	const struct xp_evmeta *m = &p->evmetas[e->meta];
	size_t len, at;
	const char *v = s ? xp_stat_str(p, s, &len) : NULL;
	int of_meta, yes;
	char buf[128];

	if (!v || !len)
		return 0;
	at = (size_t)(s - p->stats);
	of_meta = at >= m->stats_first && at < (size_t)m->stats_first + m->nstats;
	if (of_meta && memo[3 * (size_t)e->meta + M_STAT] >= 0)
		return memo[3 * (size_t)e->meta + M_STAT];
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	yes = an_is_collective(buf);
	if (of_meta)
		memo[3 * (size_t)e->meta + M_STAT] = (signed char)yes;
	return yes;
}

enum work { W_COMPUTE, W_COLL, W_MEMCPY };

/* Whether the TPU op's category (else its display name) begins with "copy": copy-start, copy-done, copy. */
static int tpu_copy(const struct xp_plane *p, const struct xp_event *e, const char *dn)
{
	const struct xp_stat *s = xp_event_stat(p, e, XP_K_HLO_CATEGORY);
	size_t len;
	const char *v = s ? xp_stat_str(p, s, &len) : NULL;

	if (v)
		return len >= 4 && !strncmp(v, "copy", 4);
	return dn && !strncmp(dn, "copy", 4);
}

static enum work classify(const struct xp_plane *p, const struct xp_event *e, int tpu,
			  signed char *memo)
{
	if (tpu) {
		const char *dn = p->evmetas[e->meta].display_name;

		if (stat_collective(p, e, XP_K_HLO_CATEGORY, memo) ||
		    memo_collective(memo, e->meta, M_DN, dn))
			return W_COLL;
		/* as TraceLens takes JAX ops named copy for memcpy: the async copies' waits */
		return tpu_copy(p, e, dn) ? W_MEMCPY : W_COMPUTE;
	}
	if (an_kind_is_copy(an_event_kind(p, e)))
		return W_MEMCPY;
	if (memo_collective(memo, e->meta, M_NAME, xp_event_name(p, e)) ||
	    stat_collective(p, e, XP_K_HLO_OP, memo))
		return W_COLL;
	return W_COMPUTE;
}

/* The device of host (NULL: none) and plane name, made on first sight. */
static struct an_ov_device *device_of(struct an_ov_result *r, const char *host, const char *name)
{
	size_t i;
	struct an_ov_device *d;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->devices[i].plane, name) && an_same_host(r->devices[i].host, host))
			return &r->devices[i];
	if (xp_grow(&r->devices, &r->cap, r->n, sizeof(*r->devices), 8))
		return NULL;
	d = &r->devices[r->n];
	memset(d, 0, sizeof(*d));
	if (!(d->plane = d->name = xp_arena_strndup(&r->arena, name, strlen(name))) ||
	    (host && !(d->host = xp_arena_strndup(&r->arena, host, strlen(host)))))
		return NULL;
	r->n++;
	return d;
}

/* A host event with a correlation_id. */
struct hlaunch {
	uint64_t corr;
	int64_t base_ns, start_ps;
};

struct launches {
	struct hlaunch *v;	/* by id, then as collected */
	size_t n;
	struct an_corr_index by_corr;
};

/* How many events of the loaded host planes carry the stat key: what to allocate for. */
static size_t count_host_events_with(const struct xp_trace *t, enum xp_key key)
{
	size_t pi, i, n = 0;

	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		if (!p->loaded || strncmp(p->name, "/host:", 6))
			continue;
		for (i = 0; i < p->nevents; i++)
			n += xp_event_stat(p, &p->events[i], key) != NULL;
	}
	return n;
}

static int collect_launches(const struct xp_trace *t, struct launches *L)
{
	size_t pi, i, n = count_host_events_with(t, XP_K_CORRELATION_ID);

	L->n = 0;
	if (!(L->v = xp_malloc_big(n + 1, sizeof(*L->v))))
		return -1;
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		if (!p->loaded || strncmp(p->name, "/host:", 6))
			continue;
		for (i = 0; i < p->nevents; i++) {
			const struct xp_stat *s = xp_event_stat(p, &p->events[i], XP_K_CORRELATION_ID);
			struct hlaunch *h = &L->v[L->n];

			if (!s || xp_stat_u64(s, &h->corr))
				continue;
			h->base_ns = p->base_ns;
			h->start_ps = p->events[i].start_ps;
			L->n++;
		}
	}
	if (xp_sort_by_u64(L->v, L->n, sizeof(*L->v), offsetof(struct hlaunch, corr)))
		return -1;
	an_corr_index_build(&L->by_corr, L->v, L->n, sizeof(*L->v), offsetof(struct hlaunch, corr));
	return 0;
}

/* Device start minus host start, both absolute; -1 when it does not fit int64 ps. */
static int latency(const struct xp_plane *p, const struct xp_event *e, const struct hlaunch *h,
		   int64_t *out)
{
	__int128 d = ((__int128)p->base_ns - h->base_ns) * 1000 + e->start_ps - h->start_ps;

	if (d > INT64_MAX || d < INT64_MIN)
		return -1;
	*out = (int64_t)d;
	return 0;
}

/* Launches of one repeated correlation id looked through for a device event. */
#define LATENCY_MAX_CANDIDATES 256

static int add_latency(struct an_ov_device *d, const struct xp_plane *p, const struct xp_event *e,
		       const struct launches *L, int64_t *linked_lat, int *linked)
{
	const struct xp_stat *s = xp_event_stat(p, e, XP_K_CORRELATION_ID);
	size_t lo, k;
	uint64_t corr;
	int64_t lat;

	if (!s || xp_stat_u64(s, &corr))
		return 0;
	d->corr_events++;
	k = an_corr_range(&L->by_corr, corr, &lo);
	k += lo;	/* the end of this id's launches */
	if (k == lo) {
		d->no_launch++;
		return 0;
	}
	if (k == lo + 1) {
		if (latency(p, e, &L->v[lo], &lat)) {
			d->off_scale++;
			return 0;
		}
		*linked = 1;
		*linked_lat = lat;
		return dist_push(&d->latency, (double)lat);
	}
	/*
	 * Several host events carry the id (processes merged, a trace repeated):
	 * the nearest in time, when more than twice as near as any other, as the
	 * execution finder resolves a repeated id without more to go on; more
	 * than LATENCY_MAX_CANDIDATES are not looked through.
	 */
	{
		uint64_t best = UINT64_MAX, second = UINT64_MAX;
		int64_t best_lat = 0;
		size_t j;

		if (k - lo > LATENCY_MAX_CANDIDATES) {
			d->ambiguous++;
			return 0;
		}
		for (j = lo; j < k; j++) {
			uint64_t a;

			if (latency(p, e, &L->v[j], &lat))
				continue;
			a = lat < 0 ? (uint64_t)0 - (uint64_t)lat : (uint64_t)lat;
			if (a < best) {
				second = best;
				best = a;
				best_lat = lat;
			} else if (a < second) {
				second = a;
			}
		}
		if (best == UINT64_MAX) {
			d->off_scale++;
			return 0;
		}
		if (second != UINT64_MAX && second - best <= best) {
			d->ambiguous++;
			return 0;
		}
		*linked = 1;
		*linked_lat = best_lat;
		return dist_push(&d->latency, (double)best_lat);
	}
}

/* A stream event in start order, with its linked launch latency (linked 0: none). */
struct lev {
	int64_t start, end, lat;
	int linked;
};

static int cmp_lev(const void *a, const void *b)
{
	const struct lev *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/*
 * One line's events (n, in any order): each linked latency split into the
 * wait behind earlier work on the stream and the rest (an_ov_device.queue).
 */
static int split_latencies(struct an_ov_device *d, struct lev *v, size_t n)
{
	int64_t prev_end = INT64_MIN;
	size_t i, j;

	for (i = 1; i < n && v[i - 1].start <= v[i].start; i++)
		;
	if (i < n)
		qsort(v, n, sizeof(*v), cmp_lev);
	for (i = 0; i < n; i = j) {
		/* events starting together do not wait for each other */
		for (j = i; j < n && v[j].start == v[i].start; j++) {
			int64_t q = 0, launch;

			if (!v[j].linked)
				continue;
			if (v[j].lat > 0 && prev_end > INT64_MIN) {
				launch = xp_sat_sub(v[j].start, v[j].lat);
				q = xp_sat_sub(prev_end, launch);
				q = q < 0 ? 0 : q > v[j].lat ? v[j].lat : q;
			}
			d->queued += q > 0;
			if (dist_push(&d->queue, (double)q) || dist_push(&d->overhead, (double)(v[j].lat - q)))
				return -1;
		}
		for (j = i; j < n && v[j].start == v[i].start; j++)
			if (v[j].end > prev_end)
				prev_end = v[j].end;
	}
	return 0;
}

/* A TPU work event for the steps' FLOPs: its interval and flops stat. */
struct fev {
	int64_t s, e;
	uint64_t flops;
	int has;
};

static int cmp_fev(const void *a, const void *b)
{
	const struct fev *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->e < y->e) - (x->e > y->e);	/* the longer first: it holds the others */
}

static int cmp_step_start(const void *a, const void *b)
{
	const struct an_ov_step *x = a, *y = b;

	return (x->start_ps > y->start_ps) - (x->start_ps < y->start_ps);
}

/*
 * The FLOPs of the plane's steps (v[0..n), by start as absolute plane
 * times in start_ps): each leaf of the n work events f (no event of
 * positive length nested in it) counts in the step its start lies in.
 */
static int step_flops(struct an_ov_step *v, size_t n, struct fev *f, size_t nf)
{
	size_t i, j;

	if (!n || !nf)
		return 0;
	qsort(f, nf, sizeof(*f), cmp_fev);
	for (i = 0; i < nf; i++) {
		size_t lo = 0, hi = n;
		int leaf = 1;

		for (j = i + 1; j < nf && f[j].s < f[i].e && leaf; j++)
			leaf = !(f[j].e <= f[i].e && f[j].e > f[j].s);
		if (!leaf)
			continue;
		while (lo < hi) {	/* the last step starting at or before it */
			size_t mid = lo + (hi - lo) / 2;

			if (v[mid].start_ps <= f[i].s)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo || f[i].s >= xp_sat_add(v[lo - 1].start_ps, v[lo - 1].dur_ps))
			continue;
		v[lo - 1].leaf_ps = xp_sat_add(v[lo - 1].leaf_ps, f[i].e - f[i].s);
		if (f[i].has) {
			v[lo - 1].flops_ps = xp_sat_add(v[lo - 1].flops_ps, f[i].e - f[i].s);
			v[lo - 1].flops_overflow |= xp_sat_add_to_u64(&v[lo - 1].flops, f[i].flops);
		}
	}
	return 0;
}

/* A trace's host steps: each step_num's first start to last end, absolute ps, by step number. */
struct hsteps {
	__int128 (*v)[2];
	size_t n;
	__int128 (*u)[2];	/* their union, by start */
	size_t nu;
};

static int cmp_i128_start(const void *a, const void *b)
{
	const __int128 *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The union of n intervals v (sorted by start) into u; returns its count. */
static size_t union_i128(__int128 (*v)[2], size_t n, __int128 (*u)[2])
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (k && v[i][0] <= u[k - 1][1]) {
			if (v[i][1] > u[k - 1][1])
				u[k - 1][1] = v[i][1];
			continue;
		}
		u[k][0] = v[i][0];
		u[k][1] = v[i][1];
		k++;
	}
	return k;
}

/* Device work of a trace, absolute ps (for its host steps). */
struct dwork {
	__int128 (*v)[2];
	size_t n, cap;
};

/* An absolute time as plane p's, within int64. */
static int64_t plane_time(const struct xp_plane *p, __int128 abs_ps)
{
	__int128 v = abs_ps - (__int128)p->base_ns * 1000;

	return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

/*
 * The host wait of a step [s, e) of plane p: the time the host is inside a
 * host step (hs's union) while the device, whose work is the merged all,
 * is idle.
 */
static int64_t host_wait(const struct xp_plane *p, const struct hsteps *hs, const int64_t (*all)[2], size_t nall,
			 int64_t s, int64_t e)
{
	int64_t w = 0;
	size_t i;

	for (i = 0; hs && i < hs->nu; i++) {
		int64_t a = plane_time(p, hs->u[i][0]), b = plane_time(p, hs->u[i][1]);

		a = a > s ? a : s;
		b = b < e ? b : e;
		if (a < b)
			w = xp_sat_add(w, (b - a) - len_within(all, nall, a, b));
	}
	return w;
}

/*
 * The work of a device plane --device left out, absolute, into dw: its host
 * steps are the host's where any device worked. -1 when out of memory.
 */
static int plane_work(const struct xp_plane *p, struct dwork *dw)
{
	unsigned char *use = malloc(p->nlines + 1), *stray = xp_malloc_big(p->nevents + 1, 1);
	struct xp_err err = {0};
	size_t li, i, nstray;
	int tpu, kernels, ret = -1;

	if (!use || !stray || pick_lines(p, use, &tpu, &kernels))
		goto out;
	for (li = 0; li < p->nlines; li++)
		use[li] = use[li] == 1;
	if (xp_plane_stray_ends(p, use, stray, &nstray, &err))
		goto out;
	for (li = 0; li < p->nlines; li++) {
		const struct xp_line *ln = &p->lines[li];

		for (i = ln->first_event; use[li] && i < ln->first_event + ln->nevents; i++) {
			const struct xp_event *e = &p->events[i];

			if (stray[i])
				continue;
			if (dw->n == dw->cap && xp_grow(&dw->v, &dw->cap, dw->n, sizeof(*dw->v), 256))
				goto out;
			dw->v[dw->n][0] = (__int128)p->base_ns * 1000 + e->start_ps;
			dw->v[dw->n][1] = dw->v[dw->n][0] + (e->dur_ps > 0 ? e->dur_ps : 0);
			dw->n++;
		}
	}
	ret = 0;
out:
	free(use);
	free(stray);
	return ret;
}

int an_ov_has_device_work(const struct xp_trace *t)
{
	size_t i;

	for (i = 0; i < t->nplanes; i++)
		if (t->planes[i].loaded && an_is_device_plane(t->planes[i].name) &&
		    an_plane_device_events(&t->planes[i]))
			return 1;
	return 0;
}

/*
 * A plane's steps v[0..n) (start_ps absolute, compute_ps and, for now,
 * coll_exposed_ps as |C u K| filled) finished: busy and the exposed parts
 * from the plane's whole work all, host wait, FLOPs of the work events fv,
 * then in start order with start_ps from the span's start first (with_span
 * 0: none, start_ps 0) and their place as added from seq.
 */
static void plane_steps(struct an_ov_step *v, size_t n, size_t seq, const struct xp_plane *p,
			const struct hsteps *hs, const int64_t (*all)[2], size_t nall, struct fev *fv, size_t nfv,
			int with_span, int64_t first)
{
	size_t k;

	for (k = 0; k < n; k++) {
		struct an_ov_step *st = &v[k];
		int64_t ck = st->coll_exposed_ps, e = xp_sat_add(st->start_ps, st->dur_ps);

		st->busy_ps = len_within(all, nall, st->start_ps, e);
		st->coll_exposed_ps = ck - st->compute_ps;
		st->memcpy_exposed_ps = st->busy_ps - ck;
		st->host_wait_ps = host_wait(p, hs, all, nall, st->start_ps, e);
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_step_start);
	step_flops(v, n, fv, nfv);
	for (k = 0; k < n; k++) {
		v[k].start_ps = with_span ? xp_sat_sub(v[k].start_ps, first) : 0;
		v[k].seq_ = seq + k;
	}
}

/* A plane's merged work all, absolute, added to dw. -1 when out of memory. */
static int dwork_add(struct dwork *dw, const struct xp_plane *p, const int64_t (*all)[2], size_t nall)
{
	size_t k;

	if (dw->n + nall > dw->cap && xp_grow(&dw->v, &dw->cap, dw->n, sizeof(*dw->v), dw->n + nall))
		return -1;
	for (k = 0; k < nall; k++) {
		dw->v[dw->n][0] = (__int128)p->base_ns * 1000 + all[k][0];
		dw->v[dw->n][1] = (__int128)p->base_ns * 1000 + all[k][1];
		dw->n++;
	}
	return 0;
}

static int add_plane(struct an_ov_result *r, const char *host, const struct xp_plane *p, const struct launches *L,
		     const char *input, const struct hsteps *hs, struct dwork *dw, size_t *added)
{
	struct fev *fv = NULL;
	size_t nfv = 0, first_step = r->nsteps, nstep_line = 0, k;
	const char *in_name = NULL;
	unsigned char *use = malloc(p->nlines + 1), *stray = xp_malloc_big(p->nevents + 1, 1);
	signed char *memo = xp_malloc_big(p->nevmetas + 1, 3), *tcm = xp_malloc_big(p->nevmetas + 1, 1);
	struct lev *lev = NULL;
	size_t nlev;
	struct ivs set[3] = {{0}};
	int64_t (*all)[2] = NULL, first = INT64_MAX, last = INT64_MIN;
	struct an_ov_device *d;
	size_t li, i, nstray = 0, nall = 0, work = 0;
	int tpu, kernels, ret = -1;
	struct xp_err err = {0};

	if (!use || !stray || !memo || !tcm || pick_lines(p, use, &tpu, &kernels))
		goto out;
	memset(memo, -1, 3 * (p->nevmetas + 1));
	memset(tcm, -1, p->nevmetas + 1);
	for (li = 0; li < p->nlines; li++)
		if (use[li] == 1)
			work += p->lines[li].nevents;
	ret = 0;
	if (!work)
		goto out;
	ret = -1;
	for (i = 0; i < 3; i++)
		if (!(set[i].v = xp_malloc_big(work + 1, sizeof(*set[i].v))))
			goto out;
	if (!(lev = xp_malloc_big(work + 1, sizeof(*lev))))
		goto out;
	if (r->want_steps && tpu && !(fv = xp_malloc_big(work + 1, sizeof(*fv))))
		goto out;
	if (r->want_steps && input && !(in_name = xp_arena_strndup(&r->arena, input, strlen(input))))
		goto out;
	if (xp_plane_stray_ends(p, use, stray, &nstray, &err))
		goto out;
	if (!(d = device_of(r, host, p->name)))
		goto out;
	d->tpu |= tpu;
	d->planes++;
	d->stray += nstray;
	for (li = 0; li < p->nlines; li++) {
		const struct xp_line *ln = &p->lines[li];

		if (!use[li])
			continue;
		nlev = 0;
		for (i = ln->first_event; i < ln->first_event + ln->nevents; i++) {
			const struct xp_event *e = &p->events[i];
			int64_t end, lat = 0;
			int linked = 0;
			enum work w;

			if (stray[i])
				continue;
			end = xp_sat_add(e->start_ps, e->dur_ps > 0 ? e->dur_ps : 0);
			if (use[li] == 3) {
				if (dist_push(&d->steps, (double)(end - e->start_ps)))
					goto out;
				if (r->want_steps) {	/* start_ps absolute until the span is known */
					const char *nm = xp_event_name(p, e);
					struct an_ov_step *st;

					if (xp_grow(&r->steps, &r->capsteps, r->nsteps, sizeof(*r->steps), 16))
						goto out;
					st = &r->steps[r->nsteps++];
					*st = (struct an_ov_step){.host = d->host, .plane = d->plane, .input = in_name,
								  .index = nstep_line++, .start_ps = e->start_ps,
								  .dur_ps = end - e->start_ps, .tpu = tpu};
					if (!(st->name = xp_arena_strndup(&r->arena, nm, strlen(nm))))
						goto out;
				}
				continue;
			}
			if (e->start_ps < first)
				first = e->start_ps;
			if (end > last)
				last = end;
			if (use[li] != 1)
				continue;
			d->events++;
			w = classify(p, e, tpu, memo);
			if (fv) {	/* a TPU op: its flops for the steps */
				const struct xp_stat *fs = xp_event_stat(p, e, XP_K_FLOPS);

				fv[nfv] = (struct fev){e->start_ps, end, 0, 0};
				fv[nfv].has = fs && !(fs->type == XP_STAT_INT64 && fs->v.i < 0) &&
					      !xp_stat_u64(fs, &fv[nfv].flops);
				nfv++;
			}
			d->coll_events += w == W_COLL;
			d->memcpy_events += w == W_MEMCPY;
			if (kernels && w != W_MEMCPY) {	/* a kernel: on tensor cores by its name (an_kern_tensor_core) */
				size_t mi = e->meta < p->nevmetas ? e->meta : p->nevmetas;

				if (tcm[mi] < 0)
					tcm[mi] = (signed char)(mi < p->nevmetas && an_kern_tensor_core(xp_event_name(p, e)));
				d->kernel_ps = xp_sat_add(d->kernel_ps, end - e->start_ps);
				if (tcm[mi])
					d->tensor_core_ps = xp_sat_add(d->tensor_core_ps, end - e->start_ps);
			}
			set[w].v[set[w].n][0] = e->start_ps;
			set[w].v[set[w].n][1] = end;
			set[w].n++;
			if (!tpu && add_latency(d, p, e, L, &lat, &linked))
				goto out;
			lev[nlev++] = (struct lev){.start = e->start_ps, .end = end, .lat = lat, .linked = linked};
		}
		if (!tpu && split_latencies(d, lev, nlev))
			goto out;
	}
	for (i = 0; i < 3; i++)
		set[i].n = an_ov_merge(set[i].v, set[i].n);
	/* C u K, then C u K u M */
	nall = set[W_COMPUTE].n + set[W_COLL].n + set[W_MEMCPY].n;
	if (!(all = xp_malloc_big(nall + 1, sizeof(*all))))
		goto out;
	memcpy(all, set[W_COMPUTE].v, set[W_COMPUTE].n * sizeof(*all));
	memcpy(all + set[W_COMPUTE].n, set[W_COLL].v, set[W_COLL].n * sizeof(*all));
	nall = an_ov_merge(all, set[W_COMPUTE].n + set[W_COLL].n);
	for (k = first_step; k < r->nsteps; k++) {	/* compute, then C u K (its collectives exposed) */
		struct an_ov_step *st = &r->steps[k];
		int64_t e = xp_sat_add(st->start_ps, st->dur_ps);

		st->compute_ps = len_within(set[W_COMPUTE].v, set[W_COMPUTE].n, st->start_ps, e);
		st->coll_exposed_ps = len_within(all, nall, st->start_ps, e);	/* |C u K| for now */
	}
	d->compute_ps = xp_sat_add(d->compute_ps, len_of(set[W_COMPUTE].v, set[W_COMPUTE].n));
	d->coll_ps = xp_sat_add(d->coll_ps, len_of(set[W_COLL].v, set[W_COLL].n));
	d->coll_exposed_ps = xp_sat_add(d->coll_exposed_ps, an_ov_minus(set[W_COLL].v, set[W_COLL].n,
								      set[W_COMPUTE].v, set[W_COMPUTE].n));
	d->memcpy_ps = xp_sat_add(d->memcpy_ps, len_of(set[W_MEMCPY].v, set[W_MEMCPY].n));
	d->memcpy_exposed_ps = xp_sat_add(d->memcpy_exposed_ps,
				       an_ov_minus(set[W_MEMCPY].v, set[W_MEMCPY].n, all, nall));
	memcpy(all + nall, set[W_MEMCPY].v, set[W_MEMCPY].n * sizeof(*all));
	nall = an_ov_merge(all, nall + set[W_MEMCPY].n);
	d->busy_ps = xp_sat_add(d->busy_ps, len_of(all, nall));
	if (r->nsteps > first_step)	/* steps is NULL while there are none */
		plane_steps(r->steps + first_step, r->nsteps - first_step, first_step, p, hs, (const int64_t (*)[2])all,
			    nall, fv, nfv, first <= last, first);
	if (hs && hs->n && dwork_add(dw, p, (const int64_t (*)[2])all, nall))	/* for the host steps */
		goto out;
	if (first <= last)
		d->span_ps = xp_sat_add(d->span_ps, xp_sat_sub(last, first));
	++*added;
	ret = 0;
out:
	for (i = 0; i < 3; i++)
		free(set[i].v);
	free(all);
	free(use);
	free(lev);
	free(stray);
	free(memo);
	free(tcm);
	free(fv);
	if (ret)
		r->nsteps = first_step;
	return ret;
}

/* Host step annotations: events with a step_num, per step number first start to last end. */
struct hstep {
	uint64_t step;
	__int128 start, end;	/* absolute ps */
};

static int cmp_hstep(const void *a, const void *b)
{
	const struct hstep *x = a, *y = b;

	return (x->step > y->step) - (x->step < y->step);
}

/* The host steps of t into *hs (its union too). 0, or -1 when out of memory. */
static int host_steps_of(struct an_ov_result *r, const struct xp_trace *t, struct hsteps *hs)
{
	size_t pi, i, n = count_host_events_with(t, XP_K_STEP_NUM), k;
	struct hstep *v;
	int ret = -1;

	memset(hs, 0, sizeof(*hs));
	if (!n)
		return 0;
	if (!(v = xp_malloc_big(n, sizeof(*v))) || !(hs->v = xp_malloc_big(n, sizeof(*hs->v))) ||
	    !(hs->u = xp_malloc_big(n, sizeof(*hs->u)))) {
		free(v);
		return -1;
	}
	n = 0;
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		if (!p->loaded || strncmp(p->name, "/host:", 6))
			continue;
		for (i = 0; i < p->nevents; i++) {
			const struct xp_event *e = &p->events[i];
			const struct xp_stat *s = xp_event_stat(p, e, XP_K_STEP_NUM);

			if (!s || xp_stat_u64(s, &v[n].step))
				continue;
			v[n].start = (__int128)p->base_ns * 1000 + e->start_ps;
			v[n].end = v[n].start + (e->dur_ps > 0 ? e->dur_ps : 0);
			n++;
		}
	}
	r->host_step_events += n;
	qsort(v, n, sizeof(*v), cmp_hstep);
	for (i = 0; i < n; i = k) {
		__int128 lo = v[i].start, hi = v[i].end;

		for (k = i; k < n && v[k].step == v[i].step; k++) {
			if (v[k].start < lo)
				lo = v[k].start;
			if (v[k].end > hi)
				hi = v[k].end;
		}
		hs->v[hs->n][0] = lo;
		hs->v[hs->n][1] = hi;
		hs->n++;
	}
	memcpy(hs->u, hs->v, hs->n * sizeof(*hs->u));
	qsort(hs->u, hs->n, sizeof(*hs->u), cmp_i128_start);
	hs->nu = union_i128(hs->u, hs->n, hs->u);
	ret = 0;
	free(v);
	return ret;
}

/*
 * Each host step of the trace into the host steps, or, where no device work
 * of the trace (dw, the union of its planes' busy intervals, absolute ps,
 * by start) overlaps it, into the host-only steps (XProf keeps a step only
 * where the devices ran).
 */
static int add_host_steps(struct an_ov_result *r, const struct hsteps *hs, const __int128 (*dw)[2], size_t ndw)
{
	size_t i;

	for (i = 0; i < hs->n; i++) {
		size_t lo = 0, hi = ndw;

		while (lo < hi) {	/* the first device interval ending after the step's start */
			size_t mid = lo + (hi - lo) / 2;

			if (dw[mid][1] <= hs->v[i][0])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (dist_push(lo < ndw && dw[lo][0] < hs->v[i][1] ? &r->host_steps : &r->host_only_steps,
			      (double)(hs->v[i][1] - hs->v[i][0])))
			return -1;
	}
	return 0;
}

/*
 * Each added device's FLOPs of its work and its peak (an_ops_work_flops):
 * each plane added (took[i]) alone, TPU planes' leaf ops only, GPU rows
 * joined to the HLO for their cost.
 */
static int add_flops(struct an_ov_result *r, struct xp_trace *t, const char *host, const unsigned char *took,
		     struct xp_err *err)
{
	const struct an_ops_opts oo = {.tpu_leaves_only = 1};
	struct an_ops_result *pr;
	size_t i;
	int ret = an_ops_planes_joined(&oo, t, took, &pr, err);

	for (i = 0; pr && i < t->nplanes; i++) {
		struct an_work_flops w;
		struct an_ov_device *d;

		if (!ret && took[i] && pr[i].ndevices) {
			if (!(d = device_of(r, host, t->planes[i].name))) {
				ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
			} else {
				an_ops_work_flops(&pr[i], &pr[i].devices[0], &w);
				d->flops_overflow |= w.overflow | xp_sat_add_to_u64(&d->flops, w.flops) |
						     xp_sat_add_to_u64(&d->model_flops, w.model_flops);
				/* GPU: its kernel time (add_plane), kernels without an op too */
				if (pr[i].devices[0].events[AN_OP_SYNC] || pr[i].devices[0].events[AN_OP_SC])
					d->work_ps = xp_sat_add(d->work_ps, w.work_ps);
				d->flops_ps = xp_sat_add(d->flops_ps, w.flops_ps);
				d->model_ps = xp_sat_add(d->model_ps, w.model_ps);
				/* pooled inputs stating different peaks: the greatest, whatever their order (as ops) */
				if ((int)pr[i].devices[0].peak_src > d->peak_src ||
				    ((int)pr[i].devices[0].peak_src == d->peak_src && pr[i].devices[0].peak_flops > d->peak_flops)) {
					d->peak_src = (int)pr[i].devices[0].peak_src;
					d->peak_flops = pr[i].devices[0].peak_flops;
				}
			}
		}
		an_ops_release(&pr[i]);
	}
	free(pr);
	return ret;
}

int an_ov_add(struct an_ov_result *r, struct xp_trace *t, const char *device, size_t *added,
	      struct xp_err *err)
{
	return an_ov_add_input(r, t, NULL, device, added, err);
}

int an_ov_add_input(struct an_ov_result *r, struct xp_trace *t, const char *input, const char *device,
		    size_t *added, struct xp_err *err)
{
	struct launches L = {0};
	struct hsteps hs = {0};
	struct dwork dw = {0};
	unsigned char *took = calloc(t->nplanes + 1, 1);	/* the planes added */
	const char *host = t->nhostnames && *t->hostnames[0] ? t->hostnames[0] : NULL;
	size_t i, j, was;
	int ret = -1;

	*added = 0;
	if (!took || collect_launches(t, &L) || host_steps_of(r, t, &hs))
		goto out;
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];

		if (!p->loaded || !an_is_device_plane(p->name))
			continue;
		if (device && !an_device_matches(p->name, device)) {	/* still device work for the host steps */
			if (hs.n && plane_work(p, &dw))
				goto out;
			continue;
		}
		/*
		 * Pooling by name is for inputs; one device twice in a trace (dumps
		 * merged into one XSpace) would double its span and busy time: the
		 * first counts.
		 */
		for (j = 0; j < i && !(took[j] && !strcmp(t->planes[j].name, p->name)); j++)
			;
		if (j < i) {
			device_of(r, host, p->name)->repeats++;	/* the first made it */
			continue;
		}
		was = *added;
		if (add_plane(r, host, p, &L, input, &hs, &dw, added))
			goto out;
		took[i] = *added > was;
	}
	r->host_only_inputs += hs.n && !*added && !an_ov_has_device_work(t);
	if (dw.n > 1) {
		qsort(dw.v, dw.n, sizeof(*dw.v), cmp_i128_start);
		dw.n = union_i128(dw.v, dw.n, dw.v);
	}
	if (add_host_steps(r, &hs, (const __int128 (*)[2])dw.v, dw.n) ||
	    (r->stragglers && add_strag(r, t, input, device)))
		goto out;
	ret = 0;
out:
	an_corr_index_release(&L.by_corr);
	free(L.v);
	free(hs.v);
	free(hs.u);
	free(dw.v);
	if (ret) {
		free(took);
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	ret = add_flops(r, t, host, took, err);
	free(took);
	return ret;
}

static int cmp_dev(const void *a, const void *b)
{
	return an_name_cmp(((const struct an_ov_device *)a)->name, ((const struct an_ov_device *)b)->name);
}

/* A sum over n planes as one plane's: the mean, rounded to the picosecond. */
static int64_t per_plane(int64_t sum, size_t n)
{
	return n > 1 ? (int64_t)llround((double)sum / (double)n) : sum;
}

/* Pooled devices' times as one input's (an_ov_device.planes). */
static void per_input(struct an_ov_device *d)
{
	int64_t rest;

	if (d->planes < 2)
		return;
	d->span_ps = per_plane(d->span_ps, d->planes);
	d->busy_ps = per_plane(d->busy_ps, d->planes);
	d->compute_ps = per_plane(d->compute_ps, d->planes);
	d->coll_ps = per_plane(d->coll_ps, d->planes);
	d->coll_exposed_ps = per_plane(d->coll_exposed_ps, d->planes);
	d->memcpy_ps = per_plane(d->memcpy_ps, d->planes);
	d->memcpy_exposed_ps = per_plane(d->memcpy_exposed_ps, d->planes);
	d->work_ps = per_plane(d->work_ps, d->planes);
	d->kernel_ps = per_plane(d->kernel_ps, d->planes);
	d->tensor_core_ps = per_plane(d->tensor_core_ps, d->planes);
	d->flops_ps = per_plane(d->flops_ps, d->planes);
	d->model_ps = per_plane(d->model_ps, d->planes);
	d->flops = (uint64_t)llround((double)d->flops / (double)d->planes);
	d->model_flops = (uint64_t)llround((double)d->model_flops / (double)d->planes);
	/* busy = compute + collective exposed + memcpy exposed, still: each part no more than its whole */
	if (d->coll_exposed_ps > d->busy_ps)
		d->coll_exposed_ps = d->busy_ps;
	if (d->memcpy_exposed_ps > d->busy_ps - d->coll_exposed_ps)
		d->memcpy_exposed_ps = d->busy_ps - d->coll_exposed_ps;
	rest = d->busy_ps - d->coll_exposed_ps - d->memcpy_exposed_ps;
	d->compute_ps = rest;
}

static const struct an_host_fields ov_hosts = {
	sizeof(struct an_ov_device), offsetof(struct an_ov_device, name), offsetof(struct an_ov_device, host),
	offsetof(struct an_ov_device, plane),
};

int64_t an_ov_step_idle(const struct an_ov_step *s)
{
	int64_t idle = xp_sat_sub(xp_sat_sub(s->dur_ps, s->busy_ps), s->host_wait_ps);

	return idle > 0 ? idle : 0;
}

double an_ov_step_flops_per_s(const struct an_ov_step *s)
{
	if (!s->tpu || !s->flops_ps || s->flops_overflow || s->dur_ps <= 0)
		return -1;
	return (double)s->flops / ((double)s->dur_ps * 1e-12);
}

double an_ov_step_util(const struct an_ov_step *s)
{
	double v = an_ov_step_flops_per_s(s);

	return v >= 0 && s->peak_flops > 0 ? v / s->peak_flops : -1;
}

static int cmp_step(const void *a, const void *b)
{
	const struct an_ov_step *x = a, *y = b;

	if (x->dev_ != y->dev_)
		return x->dev_ < y->dev_ ? -1 : 1;
	return (x->seq_ > y->seq_) - (x->seq_ < y->seq_);
}

/* Each step's device (its name and peak, after the devices are named and sorted), and the steps in device order. */
static void finish_steps(struct an_ov_result *r)
{
	size_t i, k;

	for (i = 0; i < r->nsteps; i++) {
		struct an_ov_step *s = &r->steps[i];

		for (k = 0; k < r->n; k++)
			if (!strcmp(r->devices[k].plane, s->plane) && an_same_host(r->devices[k].host, s->host))
				break;
		s->dev_ = k;
		if (k < r->n) {
			s->device = r->devices[k].name;
			s->peak_flops = r->devices[k].peak_flops;
		}
	}
	if (r->nsteps > 1)
		qsort(r->steps, r->nsteps, sizeof(*r->steps), cmp_step);
}

static int cmp_opt(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

/* Steps by input, name, device: a step's devices side by side. */
static int cmp_step_name(const void *a, const void *b)
{
	const struct an_ov_step *x = *(const struct an_ov_step *const *)a, *y = *(const struct an_ov_step *const *)b;
	int c;

	if ((c = cmp_opt(x->input, y->input)) || (c = strcmp(x->name, y->name)))
		return c;
	return (x->dev_ > y->dev_) - (x->dev_ < y->dev_);
}

static int cmp_aligned(const void *a, const void *b)
{
	const struct an_ov_aligned *x = a, *y = b;
	int c = cmp_opt(x->input, y->input);

	if (c)
		return c;
	if (x->start_ps != y->start_ps)
		return x->start_ps < y->start_ps ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * The steps lined up across devices (an_ov_aligned): per input, the names
 * every device of that input with steps has once. -1 when out of memory.
 */
static int align_steps(struct an_ov_result *r)
{
	const struct an_ov_step **v = NULL;
	size_t i, j, k, in, ndev, *seen = NULL;	/* seen[device]: the last input (+1) it had steps in */
	int ret = -1;

	if (!r->nsteps)
		return 0;
	if (!(v = malloc(r->nsteps * sizeof(*v))) || !(r->aligned = calloc(r->nsteps, sizeof(*r->aligned))) ||
	    !(seen = calloc(r->n + 1, sizeof(*seen))))
		goto out;
	for (i = 0; i < r->nsteps; i++)
		v[i] = &r->steps[i];
	qsort(v, r->nsteps, sizeof(*v), cmp_step_name);
	for (in = 0; in < r->nsteps; in = j) {
		/* one input: its devices with steps */
		for (j = in, ndev = 0; j < r->nsteps && !cmp_opt(v[j]->input, v[in]->input); j++) {
			size_t dv = v[j]->dev_ < r->n ? v[j]->dev_ : r->n;

			ndev += seen[dv] != in + 1;
			seen[dv] = in + 1;
		}
		for (i = in; i < j; i = k) {	/* one name of it */
			size_t devs = 1;
			int twice = 0;

			for (k = i + 1; k < j && !strcmp(v[k]->name, v[i]->name); k++) {
				twice |= v[k]->dev_ == v[k - 1]->dev_;
				devs += v[k]->dev_ != v[k - 1]->dev_;
			}
			if (twice || devs != ndev) {
				r->steps_unaligned += k - i;
				continue;
			}
			{
				struct an_ov_aligned *a = &r->aligned[r->naligned++];
				size_t m;

				*a = (struct an_ov_aligned){v[i]->input, v[i]->name, devs, v[i]->dur_ps, v[i]->dur_ps,
							    v[i]->device, v[i]->start_ps};
				for (m = i + 1; m < k; m++) {
					if (v[m]->dur_ps > a->max_ps) {
						a->max_ps = v[m]->dur_ps;
						a->slowest = v[m]->device;
					}
					if (v[m]->dur_ps < a->min_ps)
						a->min_ps = v[m]->dur_ps;
					if (v[m]->start_ps < a->start_ps)
						a->start_ps = v[m]->start_ps;
				}
			}
		}
	}
	if (r->naligned > 1)
		qsort(r->aligned, r->naligned, sizeof(*r->aligned), cmp_aligned);
	ret = 0;
out:
	free(v);
	free(seen);
	return ret;
}

int an_ov_finish(struct an_ov_result *r, struct xp_err *err)
{
	size_t i;

	if (r->finished_)
		return 0;
	for (i = 0; i < r->n; i++) {
		if (!r->devices[i].tpu)	/* a GPU's work: its kernels, whether or not they name an op */
			r->devices[i].work_ps = r->devices[i].kernel_ps;
		per_input(&r->devices[i]);
	}
	if (r->n && !(r->hosts = an_name_by_host(r->devices, r->n, &ov_hosts, &r->arena)))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (r->n)
		qsort(r->devices, r->n, sizeof(*r->devices), cmp_dev);
	for (i = 0; i < r->n; i++) {
		dist_finish(&r->devices[i].steps);
		dist_finish(&r->devices[i].latency);
		dist_finish(&r->devices[i].queue);
		dist_finish(&r->devices[i].overhead);
	}
	dist_finish(&r->host_steps);
	dist_finish(&r->host_only_steps);
	finish_steps(r);
	if (align_steps(r))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (an_strag_finish(&r->strag, err))
		return err->code;
	r->finished_ = 1;
	return 0;
}

int an_ov_wants_host_event(const char *name)
{
	return an_host_thunk_name(name) || an_cpu_wants_host_event(name);	/* XLA:CPU's executable calls */
}

double an_ov_flops_per_s(const struct an_ov_device *d)
{
	if (!d->flops_ps || d->flops_overflow || d->span_ps <= 0)
		return -1;
	return (double)d->flops / ((double)d->span_ps * 1e-12);
}

double an_ov_flops_util(const struct an_ov_device *d)
{
	double fs = an_ov_flops_per_s(d);

	return fs >= 0 && d->peak_flops > 0 ? fs / d->peak_flops : -1;
}

double an_ov_model_util(const struct an_ov_device *d)
{
	if (!d->model_ps || d->flops_overflow || d->span_ps <= 0 || d->peak_flops <= 0)
		return -1;
	return (double)d->model_flops / ((double)d->span_ps * 1e-12) / d->peak_flops;
}
