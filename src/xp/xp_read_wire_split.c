/* SPDX-License-Identifier: Apache-2.0 */
/* The wire reader's split: a big plane's lines filled on several threads, as one would. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xp_read_wire.h"

struct line_range {
	const uint8_t *s, *e;
};

/*
 * The events fields of a line, not looked into: at least as many as the
 * events it keeps (aggregated and filtered ones are not kept). -1 on bytes
 * the fill would reject; the caller then leaves the fill to report them.
 */
static ptrdiff_t count_line_events(struct rd *r, const uint8_t *p, const uint8_t *end)
{
	const uint8_t *s;
	uint32_t f;
	unsigned wt;
	ptrdiff_t n = 0;

	while (p < end) {
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (p && f == 4 && wt == WT_LEN) {
			p = wire_len(&r->w, p, end, &s);
			n++;
		} else if (p) {
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			return -1;
	}
	return n;
}

/*
 * The groups of a split plane count their lines' events first, each on its
 * thread; then the plane's array is sized and each group fills its slot of
 * it (no copy after). Where a count fails (bytes the fill would reject) or
 * the array cannot be sized, each group fills a plane of its own, appended
 * after, and the fill reports what it finds as one thread would.
 */
struct split_sync {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t counted;		/* groups on threads done counting */
	int count;		/* worth counting: every event is kept but aggregated ones */
	int ready;		/* slots planned: fill */
	int direct;		/* into slots of pl's events */
	struct xp_plane *pl;
	size_t nstats;		/* pl->nstats when the slots were planned (group 0 writes pl's) */
};

/* One group of consecutive lines, filled into its slot or a plane of its own, appended after. */
struct line_group {
	struct rd r;
	struct xp_arena arena;
	struct xp_read_counts counts;
	struct xp_err err;
	struct xp_plane part;		/* shares the plane's metadata; lines are the plane's */
	const struct line_range *lines;
	size_t first, n;		/* lines[first .. first + n) of the plane */
	size_t slot, slot_n;		/* its events go to plane events [slot, slot + slot_n) */
	int counted;			/* slot_n holds its lines' events fields */
	int ret;
	int started;			/* on a thread of its own */
	pthread_t thread;
	struct split_sync *sync;
};

static int fill_lines(struct rd *r, struct xp_plane *pl, const struct line_range *lines, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++)
		if ((ret = xp_wire_fill_line(r, lines[i].s, lines[i].e, pl)))
			return ret;
	return 0;
}

/* Counts group g's events fields into slot_n; g->counted if it could. */
static void count_group(struct line_group *g, const struct line_range *lines)
{
	struct xp_err saved = *g->r.w.err;
	size_t i;

	g->slot_n = 0;
	for (i = g->first; i < g->first + g->n; i++) {
		ptrdiff_t c = g->r.want && !g->r.want[i - g->first] ? 0
			      : count_line_events(&g->r, lines[i].s, lines[i].e);

		if (c < 0) {
			*g->r.w.err = saved;	/* the fill says it, where it would */
			return;
		}
		g->slot_n += (size_t)c;
	}
	g->counted = 1;
}

/* Group g (not the first) fills its slot of the plane's events. */
static void into_slot(struct line_group *g, const struct split_sync *y)
{
	g->r.line_base = g->first;
	g->r.fixed_events = 1;
	g->r.cap_events = g->slot_n;
	g->part.events = y->pl->events + g->slot;
	if (!own_in_pool(g->r.mode))	/* no event keeps a stat: indices as one thread's */
		g->part.nstats = g->r.cap_stats = y->nstats;
}

/* Group g (not the first) fills its lines, in pieces if the plane is read so. */
static int fill_group(struct line_group *g)
{
	int ret = g->r.pieces ? xp_wire_pieces_begin(&g->r, &g->part) : 0;

	if (!ret)
		ret = fill_lines(&g->r, &g->part, g->lines + g->first, g->n);
	if (g->r.pieces)
		xp_wire_pieces_end(&g->r, &g->part);
	return ret;
}

static void *group_run(void *arg)
{
	struct line_group *g = arg;
	struct split_sync *y = g->sync;

	if (y->count)
		count_group(g, g->lines);
	pthread_mutex_lock(&y->lock);
	y->counted++;
	pthread_cond_broadcast(&y->cond);
	while (!y->ready)
		pthread_cond_wait(&y->cond, &y->lock);
	pthread_mutex_unlock(&y->lock);
	if (y->direct)
		into_slot(g, y);
	g->ret = fill_group(g);
	return NULL;
}

/*
 * Once every group has counted: whether they fill slots of pl's events
 * (sized here), and where each slot starts.
 */
static int plan_slots(struct rd *r, struct xp_plane *pl, struct line_group *g, size_t ngroups)
{
	struct xp_err saved = *r->w.err;
	size_t k, total = 0;

	for (k = 0; k < ngroups; k++) {
		if (!g[k].counted)
			return 0;
		g[k].slot = total;
		total += g[k].slot_n;
	}
	if (total >= UINT32_MAX - 1 || room_events(r, pl, total + 1)) {
		*r->w.err = saved;	/* growth says it, as it goes */
		return 0;
	}
	return 1;
}

/* The byte ranges of the plane's lines, in order; *n of them. */
static int line_ranges(struct rd *r, const uint8_t *p, const uint8_t *end, struct line_range *out,
		       size_t cap, size_t *n)
{
	const uint8_t *s, *at;
	uint32_t f;
	unsigned wt;

	*n = 0;
	while (p < end) {
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (p && f == 3) {
			p = wire_len_field(&r->w, p, end, at, f, wt, &s);
			if (p && *n < cap) {
				out[*n].s = s;
				out[*n].e = p;
			}
			*n += p != NULL;
		} else if (p) {
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	if (*n != cap) {
		wire_bad(&r->w, end, "line count changed between passes");
		return XP_ERR_FORMAT;
	}
	return 0;
}

/* Appends group g's aggregated events to pl's, their lines the plane's (direct: they are). */
static int append_aggs(struct rd *r, struct xp_plane *pl, struct line_group *g, int direct)
{
	size_t need = pl->naggs + g->part.naggs, i;

	if (!g->part.naggs)
		return 0;
	if (need > r->cap_aggs) {
		void *n = need < SIZE_MAX / sizeof(*pl->aggs) - 1
			  ? xp_arena_block_grow(pl->aggs, (need + 1) * sizeof(*pl->aggs)) : NULL;

		if (!n)
			return nomem(r);
		pl->aggs = n;
		r->cap_aggs = need;
	}
	for (i = 0; i < g->part.naggs; i++) {
		pl->aggs[pl->naggs + i] = g->part.aggs[i];
		if (!direct)
			pl->aggs[pl->naggs + i].line += (uint32_t)g->first;
	}
	pl->naggs = need;
	return 0;
}

/*
 * Moves group g, filled in its slot, to follow the plane's events (a slot
 * left unfilled by events not kept closes up), its stats appended.
 */
static int append_slot(struct rd *r, struct xp_plane *pl, struct line_group *g)
{
	size_t ev0 = pl->nevents, st0 = pl->nstats, i;
	int ret;

	if (own_in_pool(r->mode)) {	/* else none kept: the group counted from st0 */
		if ((ret = room_stats(r, pl, st0 + g->part.nstats)))
			return ret;
		if (g->part.nstats)	/* a group with none has no block */
			memcpy(pl->stats + st0, g->part.stats, g->part.nstats * sizeof(*pl->stats));
		for (i = 0; st0 && i < g->part.nevents; i++)
			pl->events[g->slot + i].stats_first += (uint32_t)st0;
		pl->nstats += g->part.nstats;
	}
	if (ev0 != g->slot && g->part.nevents)
		memmove(pl->events + ev0, pl->events + g->slot, g->part.nevents * sizeof(*pl->events));
	for (i = 0; i < g->part.nlines; i++)
		pl->lines[g->first + i].first_event += ev0;
	pl->nevents += g->part.nevents;
	pl->nlines += g->part.nlines;
	add_counts(r->counts, &g->counts);
	return 0;
}

/* Appends group g's events and stats to pl, their indices moved to pl's. */
static int append_group(struct rd *r, struct xp_plane *pl, struct line_group *g)
{
	size_t ev0 = pl->nevents, st0 = pl->nstats, i;
	int ret;

	if ((ret = room_events(r, pl, ev0 + g->part.nevents)) ||
	    (ret = room_stats(r, pl, st0 + g->part.nstats)))
		return ret;
	if (g->part.nstats)	/* a group with none has no block */
		memcpy(pl->stats + st0, g->part.stats, g->part.nstats * sizeof(*pl->stats));
	for (i = 0; i < g->part.nevents; i++) {
		struct xp_event *e = &pl->events[ev0 + i];

		*e = g->part.events[i];
		e->line += (uint32_t)g->first;
		if (r->mode != XP_EVSTATS_INPUT)	/* INPUT: the bytes of its plane, not the pool */
			e->stats_first += (uint32_t)st0;
	}
	for (i = 0; i < g->part.nlines; i++)
		pl->lines[g->first + i].first_event += ev0;
	pl->nevents += g->part.nevents;
	pl->nstats += g->part.nstats;
	pl->nlines += g->part.nlines;
	add_counts(r->counts, &g->counts);
	return 0;
}

/*
 * Up to want more threads within the budget jobs - 1 of one read, *busy
 * of it taken (struct rd.split_busy): plane workers splitting at once do
 * not start jobs^2 threads. How many were taken.
 */
static unsigned take_threads(unsigned *busy, unsigned want, unsigned jobs)
{
	unsigned have = __atomic_load_n(busy, __ATOMIC_RELAXED), take;

	do {
		take = jobs - 1 > have ? jobs - 1 - have : 0;
		if (take > want)
			take = want;
	} while (take && !__atomic_compare_exchange_n(busy, &have, have + take, 0,
						      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return take;
}

/*
 * Walk 2 over lines split into groups of about equal bytes: the first in
 * this thread into pl, the others on threads of their own into planes of
 * their own, appended in order. The first error in line order is reported,
 * as one thread reading them in turn would report it.
 */
int xp_wire_fill_split(struct rd *r, const uint8_t *start, const uint8_t *end, struct xp_plane *pl,
		       size_t nlines, size_t ngroups)
{
	struct line_range *lines = malloc((nlines + 1) * sizeof(*lines));
	struct line_group *g = calloc(ngroups, sizeof(*g));
	size_t i, k, n = 0, acc = 0, bytes = 0, started = 0;
	unsigned taken = 0;
	int ret = 0, direct;
	struct split_sync sync = {.counted = 0};

	if (!lines || !g) {
		ret = nomem(r);
		goto out;
	}
	if ((ret = line_ranges(r, start, end, lines, nlines, &n)))
		goto out;
	taken = take_threads(r->split_busy, (unsigned)ngroups - 1, r->o->jobs);
	ngroups = 1 + taken;
	for (i = 0; i < nlines; i++)
		bytes += (size_t)(lines[i].e - lines[i].s);
	/*
	 * Groups of consecutive lines, cut before the line whose middle passes
	 * the next share of the bytes: a big line goes to the side it fits
	 * better (the host plane of a JAX trace has one line of half its bytes).
	 */
	for (i = 0, k = 0; i < nlines; i++) {
		size_t len = (size_t)(lines[i].e - lines[i].s);

		if (k + 1 < ngroups && g[k].n && acc + len / 2 > bytes / ngroups * (k + 1))
			g[++k].first = i;
		g[k].n++;
		acc += len;
	}
	ngroups = k + 1;
	if (pthread_mutex_init(&sync.lock, NULL)) {
		__atomic_sub_fetch(r->split_busy, taken, __ATOMIC_RELAXED);
		ret = nomem(r);
		goto out;
	}
	if (pthread_cond_init(&sync.cond, NULL)) {
		pthread_mutex_destroy(&sync.lock);
		__atomic_sub_fetch(r->split_busy, taken, __ATOMIC_RELAXED);
		ret = nomem(r);
		goto out;
	}
	sync.pl = pl;
	/*
	 * A filtered host plane keeps few of its events: slots sized for all
	 * would be touched twice as they close up; its groups fill their own.
	 * A plane read in pieces keeps none.
	 */
	sync.count = !r->keep_meta && !r->pieces;	/* pieces: no slots */
	for (k = 0; k < ngroups; k++) {
		struct line_group *x = &g[k];

		x->lines = lines;
		x->sync = &sync;
		if (k == 0) {
			x->r = *r;	/* counts with the plane's reader; fills into pl */
			continue;
		}
		xp_arena_init(&x->arena);
		x->r = *r;
		x->r.arena = &x->arena;
		x->r.counts = &x->counts;
		x->r.w.err = &x->err;
		x->r.str = NULL;
		x->r.str_left = 0;
		x->r.spare = NULL;
		x->r.piece = NULL;
		x->r.cap_stats = x->r.cap_events = 0;
		x->r.want = r->want ? r->want + x->first : NULL;
		x->r.dropped = r->dropped ? lines[x->first].s : NULL;
		x->part = *pl;
		x->part.lines = pl->lines + x->first;
		x->part.nlines = 0;
		x->part.events = NULL;
		x->part.stats = NULL;
		x->part.nevents = x->part.nstats = 0;
		x->part.aggs = NULL;
		x->part.naggs = 0;
		x->r.cap_aggs = 0;
		x->started = !pthread_create(&x->thread, NULL, group_run, x);
		started += x->started;
	}
	/* This thread counts its own group and those no thread took, then plans the slots. */
	for (k = 0; k < ngroups && sync.count; k++)
		if (!g[k].started)
			count_group(&g[k], lines);
	pthread_mutex_lock(&sync.lock);
	while (sync.counted < started)
		pthread_cond_wait(&sync.cond, &sync.lock);
	direct = sync.direct = plan_slots(r, pl, g, ngroups);
	sync.nstats = pl->nstats;
	sync.ready = 1;
	pthread_cond_broadcast(&sync.cond);
	pthread_mutex_unlock(&sync.lock);
	if (direct) {
		size_t cap = r->cap_events;

		r->fixed_events = 1;
		r->cap_events = g[0].slot_n;
		ret = fill_lines(r, pl, lines, g[0].n);
		r->fixed_events = 0;
		r->cap_events = cap;
	} else {
		ret = fill_lines(r, pl, lines, g[0].n);
	}
	for (k = 1; k < ngroups; k++) {	/* no thread: this one, in turn */
		if (g[k].started)
			continue;
		if (direct)
			into_slot(&g[k], &sync);
		g[k].ret = fill_group(&g[k]);
	}
	for (k = 1; k < ngroups; k++) {
		if (g[k].started)
			pthread_join(g[k].thread, NULL);
		if (!ret && g[k].ret) {
			ret = g[k].ret;
			*r->w.err = g[k].err;
		}
		if (direct) {
			if (!own_in_pool(r->mode))
				g[k].part.nstats = 0;	/* none added: the plane's own count */
			if (!ret)
				ret = append_slot(r, pl, &g[k]);
			g[k].part.events = NULL;	/* the plane's */
		} else if (!ret) {
			ret = append_group(r, pl, &g[k]);
		}
		if (!ret)
			ret = append_aggs(r, pl, &g[k], direct);
		xp_arena_block_free(g[k].part.aggs);
		xp_arena_block_free(g[k].part.events);
		xp_arena_block_free(g[k].part.stats);
		free(g[k].r.piece);
		xp_arena_adopt(r->arena, &g[k].arena);
	}
	__atomic_sub_fetch(r->split_busy, taken, __ATOMIC_RELAXED);
	pthread_mutex_destroy(&sync.lock);
	pthread_cond_destroy(&sync.cond);
out:
	free(lines);
	free(g);
	return ret;
}
