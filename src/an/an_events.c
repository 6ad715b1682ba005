/* SPDX-License-Identifier: Apache-2.0 */
#include "an_events.h"

#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "xp_sat.h"
#include "xp_stray.h"

void an_ev_init(struct an_ev_result *r)
{
	memset(r, 0, sizeof(*r));
	xp_arena_init(&r->arena);
}

void an_ev_release(struct an_ev_result *r)
{
	xp_arena_release(&r->arena);
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

int an_ev_selects_line(const struct an_ev_opts *o, const char *plane, const char *line)
{
	return (!o->plane || an_device_matches(plane, o->plane)) &&
	       (!o->line || an_device_matches(line, o->line));
}

/* Per event metadata of one plane, while one line is scanned. */
struct acc {
	size_t count, stray, agg;
	int64_t total, min, max;
	int match;		/* -1: not yet asked, 0, 1 */
	int min_unknown, max_unknown;
};

struct meta_name {
	const char *name;
	uint32_t meta;
};

static int cmp_meta_name(const void *a, const void *b)
{
	const struct meta_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->meta > y->meta) - (x->meta < y->meta);
}

static struct an_ev_row *push_row(struct an_ev_result *r)
{
	if (xp_grow(&r->rows, &r->cap, r->n, sizeof(*r->rows), 64))
		return NULL;
	memset(&r->rows[r->n], 0, sizeof(r->rows[0]));
	return &r->rows[r->n++];
}

static char *dup(struct an_ev_result *r, const char *s)
{
	return xp_arena_strndup(&r->arena, s, strlen(s));
}

/*
 * Pools row s's counts into row d: times (total, min, max over the events
 * not stray) join d's, the total saturating; a min or max unknown on
 * either side is unknown.
 */
static void pool(struct an_ev_row *d, const struct an_ev_row *s)
{
	if (s->count > s->stray) {
		if (d->count == d->stray || s->min_ps < d->min_ps)
			d->min_ps = s->min_ps;
		if (d->count == d->stray || s->max_ps > d->max_ps)
			d->max_ps = s->max_ps;
	}
	d->count = (size_t)xp_sat_add_u64(d->count, s->count);
	d->stray += s->stray;
	d->aggregated = (size_t)xp_sat_add_u64(d->aggregated, s->aggregated);
	d->min_unknown |= s->min_unknown;
	d->max_unknown |= s->max_unknown;
	if (d->min_unknown)
		d->min_ps = 0;
	if (d->max_unknown)
		d->max_ps = 0;
	d->total_ps = xp_sat_add(d->total_ps, s->total_ps);
}

/*
 * Aggregated event g into its metadata's a: its occurrences, total, and
 * shortest and longest where known (one occurrence: its total is both).
 */
static void acc_agg(struct acc *a, const struct xp_agg *g)
{
	int64_t min = g->occurrences == 1 ? g->dur_ps : g->min_ps, max = g->dur_ps;
	int first = a->count == a->stray;

	a->count = (size_t)xp_sat_add_u64(a->count, (uint64_t)g->occurrences);	/* SIZE_MAX: overflowed */
	a->agg = (size_t)xp_sat_add_u64(a->agg, (uint64_t)g->occurrences);
	a->total = xp_sat_add(a->total, g->dur_ps);
	if (min < 0)
		a->min_unknown = 1;
	else if (first || min < a->min)
		a->min = min;
	if (g->occurrences > 1)
		a->max_unknown = 1;
	else if (first || max > a->max)
		a->max = max;
}

static int add_plane(struct an_ev_result *r, const struct xp_plane *p, const struct an_ev_opts *o,
		     struct xp_err *err)
{
	struct acc *acc = calloc(p->nevmetas + 1, sizeof(*acc));
	struct meta_name *touched = xp_malloc_big(p->nevmetas + 1, sizeof(*touched));
	unsigned char *stray = xp_malloc_big(p->nevents + 1, 1);
	const char *pname = NULL;
	size_t li, i, ag = 0, nstray = 0;
	int ret = XP_ERR_NOMEM;

	if (!acc || !touched || !stray)
		goto out;
	for (i = 0; i <= p->nevmetas; i++)
		acc[i].match = -1;
	if ((ret = xp_plane_stray_ends(p, NULL, stray, &nstray, err)))
		goto out;
	ret = XP_ERR_NOMEM;
	r->planes_seen++;
	for (li = 0; li < p->nlines; li++) {
		const struct xp_line *ln = &p->lines[li];
		const char *lname = NULL;
		size_t nt = 0, k, order = r->next_order_++;

		if (!an_ev_selects_line(o, p->name, ln->name))
			continue;
		for (i = ln->first_event; i < ln->first_event + ln->nevents; i++) {
			const struct xp_event *e = &p->events[i];
			struct acc *a = &acc[e->meta];

			if (a->match < 0)
				a->match = !o->match || !regexec(o->match, xp_event_name(p, e), 0, NULL, 0);
			if (!a->match)
				continue;
			if (!a->count) {
				touched[nt].name = xp_event_name(p, e);
				touched[nt++].meta = e->meta;
			}
			a->count++;
			if (stray[i]) {
				a->stray++;
				continue;
			}
			if (a->count - a->stray == 1 || e->dur_ps < a->min)
				a->min = e->dur_ps;
			if (a->count - a->stray == 1 || e->dur_ps > a->max)
				a->max = e->dur_ps;
			/* saturate: hostile durations may sum past int64 */
			a->total = xp_sat_add(a->total, e->dur_ps);
		}
		for (; ag < p->naggs && p->aggs[ag].line < li; ag++)
			;
		for (; ag < p->naggs && p->aggs[ag].line == li; ag++) {
			const struct xp_agg *g = &p->aggs[ag];
			struct acc *a = &acc[g->meta];

			if (!g->occurrences)
				continue;
			if (a->match < 0)
				a->match = !o->match || !regexec(o->match, p->evmetas[g->meta].name, 0, NULL, 0);
			if (!a->match)
				continue;
			if (!a->count) {
				touched[nt].name = p->evmetas[g->meta].name;
				touched[nt++].meta = g->meta;
			}
			acc_agg(a, g);
			r->aggregated_odd += g->odd;
		}
		/* Metadata entries that share a name are one name. */
		qsort(touched, nt, sizeof(*touched), cmp_meta_name);
		for (k = 0; k < nt; k++) {
			struct acc *a = &acc[touched[k].meta];
			struct an_ev_row *row;

			if (k && !strcmp(touched[k].name, touched[k - 1].name)) {
				row = &r->rows[r->n - 1];
			} else {
				if (!(row = push_row(r)))
					goto out;
				if (!pname && !(pname = dup(r, p->name)))
					goto out;
				if (!lname && !(lname = dup(r, ln->name)))
					goto out;
				row->plane = pname;
				row->line = lname;
				row->order = order;
				if (!(row->name = dup(r, touched[k].name)))
					goto out;
			}
			{
				struct an_ev_row part = {.count = a->count, .stray = a->stray, .aggregated = a->agg,
							 .min_unknown = a->min_unknown,
							 .max_unknown = a->max_unknown, .total_ps = a->total,
							 .min_ps = a->min, .max_ps = a->max};

				pool(row, &part);
			}
			r->events = (size_t)xp_sat_add_u64(r->events, a->count);
			r->stray += a->stray;
			r->aggregated = (size_t)xp_sat_add_u64(r->aggregated, a->agg);
			a->count = a->stray = a->agg = 0;
			a->total = a->min = a->max = 0;
			a->min_unknown = a->max_unknown = 0;
		}
	}
	ret = 0;
out:
	if (ret == XP_ERR_NOMEM)
		xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	free(acc);
	free(touched);
	free(stray);
	return ret;
}

int an_ev_plane_read(struct xp_plane *p, void *ctx, struct xp_err *err)
{
	const struct an_ev_opts *o = ctx;
	struct an_ev_result *part;
	int ret;

	if (o->plane && !an_device_matches(p->name, o->plane))
		return 0;
	if (!(part = malloc(sizeof(*part))))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	an_ev_init(part);
	if ((ret = add_plane(part, p, o, err))) {
		an_ev_user_free(part);
		return ret;
	}
	p->user = part;
	return 0;
}

void an_ev_user_free(void *user)
{
	if (user)
		an_ev_release(user);
	free(user);
}

/* Adds the rows of a plane counted as it was read (part, left as it is), in their order after r's. */
static int take_part(struct an_ev_result *r, const struct an_ev_result *part, struct xp_err *err)
{
	size_t i;

	for (i = 0; i < part->n; i++) {
		struct an_ev_row *row = push_row(r);

		if (!row)
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		*row = part->rows[i];
		row->order += r->next_order_;
		/* the trace owns part: its strings are copied */
		if (i && part->rows[i].plane == part->rows[i - 1].plane)
			row->plane = row[-1].plane;
		else if (!(row->plane = dup(r, part->rows[i].plane)))
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		if (i && part->rows[i].line == part->rows[i - 1].line)
			row->line = row[-1].line;
		else if (!(row->line = dup(r, part->rows[i].line)))
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		if (!(row->name = dup(r, part->rows[i].name)))
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	r->next_order_ += part->next_order_;
	r->events = (size_t)xp_sat_add_u64(r->events, part->events);
	r->stray += part->stray;
	r->aggregated = (size_t)xp_sat_add_u64(r->aggregated, part->aggregated);
	r->aggregated_odd += part->aggregated_odd;
	r->planes_seen += part->planes_seen;
	return 0;
}

int an_ev_add(struct an_ev_result *r, const struct xp_trace *t, const struct an_ev_opts *o,
	      struct xp_err *err)
{
	size_t i;
	int ret;

	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];

		if (!p->loaded || (o->plane && !an_device_matches(p->name, o->plane)))
			continue;
		if (p->user)	/* counted as it was read (an_ev_plane_read) */
			ret = take_part(r, p->user, err);
		else if (p->events_released)
			ret = xp_err_set(err, XP_ERR_USAGE, "plane '%s': events released uncounted", p->name);
		else
			ret = add_plane(r, p, o, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	const struct an_ev_row *x = a, *y = b;
	int c;

	if ((c = strcmp(x->plane, y->plane)) || (c = strcmp(x->line, y->line)) ||
	    (c = strcmp(x->name, y->name)))
		return c;
	return (x->order > y->order) - (x->order < y->order);
}

static int cmp_shown(const void *a, const void *b)
{
	const struct an_ev_row *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if (x->total_ps != y->total_ps)
		return x->total_ps > y->total_ps ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

int an_ev_finish(struct an_ev_result *r, struct xp_err *err)
{
	size_t i, j, g;

	(void)err;
	if (!r->n)
		return 0;
	qsort(r->rows, r->n, sizeof(*r->rows), cmp_key);
	/* pool equal keys (several inputs) */
	for (i = 1, j = 0; i < r->n; i++) {
		struct an_ev_row *d = &r->rows[j], *s = &r->rows[i];

		if (strcmp(d->plane, s->plane) || strcmp(d->line, s->line) || strcmp(d->name, s->name)) {
			r->rows[++j] = *s;
			continue;
		}
		pool(d, s);
	}
	r->n = j + 1;
	r->planes = 0;
	for (i = 0; i < r->n; i++)	/* sorted by plane name first */
		r->planes += !i || strcmp(r->rows[i].plane, r->rows[i - 1].plane);
	/* one order per (plane, line): its first sighting */
	for (g = 0; g < r->n; g = j) {
		size_t order = r->rows[g].order;

		for (j = g; j < r->n && !strcmp(r->rows[j].plane, r->rows[g].plane) &&
			    !strcmp(r->rows[j].line, r->rows[g].line); j++)
			if (r->rows[j].order < order)
				order = r->rows[j].order;
		for (i = g; i < j; i++)
			r->rows[i].order = order;
	}
	qsort(r->rows, r->n, sizeof(*r->rows), cmp_shown);
	return 0;
}

int an_ev_each(const struct an_ev_opts *o, const struct xp_trace *t,
	       int (*fn)(void *ctx, const struct xp_plane *p, const struct xp_event *e), void *ctx)
{
	size_t pi, li, i;
	int ret = 0;

	for (pi = 0; pi < t->nplanes && !ret; pi++) {
		const struct xp_plane *p = &t->planes[pi];
		signed char *match;	/* per event metadata: -1 not yet known, else whether the name matches */

		if (!p->loaded || (o->plane && !an_device_matches(p->name, o->plane)))
			continue;
		if (!(match = malloc(p->nevmetas + 1)))
			return XP_ERR_NOMEM;
		memset(match, -1, p->nevmetas + 1);
		for (li = 0; li < p->nlines && !ret; li++) {
			const struct xp_line *ln = &p->lines[li];

			if (!an_ev_selects_line(o, p->name, ln->name))
				continue;
			for (i = ln->first_event; i < ln->first_event + ln->nevents && !ret; i++) {
				const struct xp_event *e = &p->events[i];

				if (match[e->meta] < 0)
					match[e->meta] = !o->match || !regexec(o->match, xp_event_name(p, e), 0, NULL, 0);
				if (match[e->meta])
					ret = fn(ctx, p, e);
			}
		}
		free(match);
	}
	return ret;
}
