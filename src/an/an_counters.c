/* SPDX-License-Identifier: Apache-2.0 */
#include "an_counters.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_device.h"
#include "xp_arena.h"
#include "xp_sat.h"

int an_is_counter_line(const char *name)
{
	return name && !strcmp(name, AN_COUNTER_LINE);
}

void an_ctr_init(struct an_ctr_result *r)
{
	memset(r, 0, sizeof(*r));
}

void an_ctr_release(struct an_ctr_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->rows[i].plane);
		free(r->rows[i].name);
	}
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

double an_ctr_mean(const struct an_ctr_row *row)
{
	return row->samples ? (double)(row->sum / (long double)row->samples) : NAN;
}

double an_ctr_time_mean(const struct an_ctr_row *row)
{
	return row->held_ps > 0 ? (double)(row->held / (long double)row->held_ps) : NAN;
}

/* A numeric stat's value, finite: 0, else -1. */
static int num_value(const struct xp_stat *s, double *v)
{
	switch (s->type) {
	case XP_STAT_DOUBLE:
		*v = s->v.d;
		break;
	case XP_STAT_INT64:
		*v = (double)s->v.i;
		break;
	case XP_STAT_UINT64:
		*v = (double)s->v.u;
		break;
	default:
		return -1;
	}
	return isfinite(*v) ? 0 : -1;
}

/* The stat of [s, s + n) named name, or NULL. */
static const struct xp_stat *named(const struct xp_plane *p, const struct xp_stat *s, size_t n,
				   const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(xp_stat_name(p, &s[i]), name))
			return &s[i];
	return NULL;
}

int an_ctr_value(const struct xp_plane *p, const struct xp_event *e, struct xp_stat *buf, double *v)
{
	const struct xp_evmeta *m = &p->evmetas[e->meta];
	const struct xp_stat *own = e->nstats ? xp_event_own_stats(p, e, buf) : NULL;
	const struct xp_stat *ms = m->nstats ? &p->stats[m->stats_first] : NULL;
	const char *const names[2] = {"counter_value", m->name};
	const struct xp_stat *s = NULL, *only = NULL;
	size_t i, k, numeric = 0;

	for (k = 0; k < 2 && !s; k++) {
		if (own)
			s = named(p, own, e->nstats, names[k]);
		if (!s && ms)
			s = named(p, ms, m->nstats, names[k]);
	}
	if (s)
		return num_value(s, v);
	for (i = 0; own && i < e->nstats; i++) {
		if (own[i].type == XP_STAT_DOUBLE || own[i].type == XP_STAT_INT64 || own[i].type == XP_STAT_UINT64) {
			numeric++;
			only = &own[i];
		}
	}
	return numeric == 1 ? num_value(only, v) : -1;
}

struct sample {
	const char *name;
	int64_t t;
	double v;
	size_t idx;		/* in the plane: file order on a tie */
	int has;
};

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static struct an_ctr_row *push_row(struct an_ctr_result *r, const char *plane, const char *name)
{
	struct an_ctr_row *row;

	if (xp_grow(&r->rows, &r->cap, r->n, sizeof(*r->rows), 16))
		return NULL;
	row = &r->rows[r->n];
	memset(row, 0, sizeof(*row));
	row->plane = strdup(plane);
	row->name = strdup(name);
	if (!row->plane || !row->name) {
		free(row->plane);
		free(row->name);
		return NULL;
	}
	r->n++;
	return row;
}

/* The samples of one counter, ordered by time, into row. */
static void summarise(struct an_ctr_row *row, const struct sample *s, size_t n)
{
	size_t i;
	const struct sample *prev = NULL;

	for (i = 0; i < n; i++) {
		if (!s[i].has) {
			row->no_value++;
			continue;
		}
		if (!row->samples || s[i].v < row->min)
			row->min = s[i].v;
		if (!row->samples || s[i].v > row->max)
			row->max = s[i].v;
		row->samples++;
		row->sum += s[i].v;
		if (prev) {
			int64_t dt;	/* >= 0: by time */

			if (!__builtin_sub_overflow(s[i].t, prev->t, &dt) && dt > 0) {
				row->held += (long double)prev->v * (long double)dt;
				row->held_ps = xp_sat_add(row->held_ps, dt);
			}
		}
		prev = &s[i];
	}
}

static int add_plane(struct an_ctr_result *r, const struct xp_plane *p, const struct an_ctr_opts *o)
{
	struct sample *s;
	struct xp_stat *buf = NULL;
	signed char *match = NULL;
	size_t li, i, n = 0, total = 0, g, order;
	int ret = XP_ERR_NOMEM;

	r->planes_seen++;
	for (li = 0; li < p->nlines; li++)
		if (an_is_counter_line(p->lines[li].name)) {
			total += p->lines[li].nevents;
			r->lines++;
		}
	if (!total)
		return 0;
	s = xp_malloc_big(total + 1, sizeof(*s));
	buf = calloc(p->max_own_stats + 1, sizeof(*buf));
	match = malloc(p->nevmetas + 1);
	if (!s || !buf || !match)
		goto out;
	memset(match, -1, p->nevmetas + 1);
	for (li = 0; li < p->nlines; li++) {
		const struct xp_line *l = &p->lines[li];

		if (!an_is_counter_line(l->name))
			continue;
		for (i = l->first_event; i < l->first_event + l->nevents; i++) {
			const struct xp_event *e = &p->events[i];

			if (match[e->meta] < 0)
				match[e->meta] = !o->match || !regexec(o->match, xp_event_name(p, e), 0, NULL, 0);
			if (!match[e->meta])
				continue;
			s[n].name = xp_event_name(p, e);
			s[n].t = e->start_ps;
			s[n].idx = i;
			s[n].has = !an_ctr_value(p, e, buf, &s[n].v);
			n++;
		}
	}
	qsort(s, n, sizeof(*s), cmp_sample);
	order = r->next_order_++;
	for (g = 0; g < n; g = i) {
		struct an_ctr_row *row;

		for (i = g; i < n && !strcmp(s[i].name, s[g].name); i++)
			;
		if (!(row = push_row(r, p->name, s[g].name)))
			goto out;
		row->order = order;
		summarise(row, s + g, i - g);
		r->samples += row->samples;
		r->no_value += row->no_value;
	}
	ret = 0;
out:
	free(s);
	free(buf);
	free(match);
	return ret;
}

int an_ctr_plane_read(struct xp_plane *p, void *ctx, struct xp_err *err)
{
	const struct an_ctr_opts *o = ctx;
	struct an_ctr_result *part;

	if (o->plane && !an_device_matches(p->name, o->plane))
		return 0;
	if (!(part = malloc(sizeof(*part))))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	an_ctr_init(part);
	if (add_plane(part, p, o)) {
		an_ctr_user_free(part);
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	p->user = part;
	return 0;
}

void an_ctr_user_free(void *user)
{
	if (user)
		an_ctr_release(user);
	free(user);
}

/* Moves part's rows (part left empty) after r's, their order after r's. */
static int take_part(struct an_ctr_result *r, struct an_ctr_result *part)
{
	size_t i;

	for (i = 0; i < part->n; i++) {
		if (xp_grow(&r->rows, &r->cap, r->n, sizeof(*r->rows), 16))
			return XP_ERR_NOMEM;
		r->rows[r->n] = part->rows[i];
		r->rows[r->n++].order += r->next_order_;
	}
	part->n = 0;
	r->next_order_ += part->next_order_;
	r->samples += part->samples;
	r->no_value += part->no_value;
	r->lines += part->lines;
	r->planes_seen += part->planes_seen;
	return 0;
}

int an_ctr_add(struct an_ctr_result *r, const struct xp_trace *t, const struct an_ctr_opts *o,
	       struct xp_err *err)
{
	size_t i;
	int ret;

	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];

		if (!p->loaded || (o->plane && !an_device_matches(p->name, o->plane)))
			continue;
		if (p->user)	/* counted as it was read (an_ctr_plane_read) */
			ret = take_part(r, p->user);
		else if (p->events_released)
			return xp_err_set(err, XP_ERR_USAGE, "plane '%s': events released uncounted", p->name);
		else
			ret = add_plane(r, p, o);
		if (ret)
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	const struct an_ctr_row *x = a, *y = b;
	int c;

	if ((c = strcmp(x->plane, y->plane)) || (c = strcmp(x->name, y->name)))
		return c;
	return (x->order > y->order) - (x->order < y->order);
}

static int cmp_shown(const void *a, const void *b)
{
	const struct an_ctr_row *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(x->name, y->name);
}

int an_ctr_finish(struct an_ctr_result *r, struct xp_err *err)
{
	size_t i, j, g;

	(void)err;
	if (!r->n)
		return 0;
	qsort(r->rows, r->n, sizeof(*r->rows), cmp_key);
	for (i = 1, j = 0; i < r->n; i++) {
		struct an_ctr_row *d = &r->rows[j], *s = &r->rows[i];

		if (strcmp(d->plane, s->plane) || strcmp(d->name, s->name)) {
			r->rows[++j] = *s;
			continue;
		}
		if (s->samples && (!d->samples || s->min < d->min))
			d->min = s->min;
		if (s->samples && (!d->samples || s->max > d->max))
			d->max = s->max;
		d->samples += s->samples;
		d->no_value += s->no_value;
		d->sum += s->sum;
		d->held += s->held;
		d->held_ps = xp_sat_add(d->held_ps, s->held_ps);
		free(s->plane);
		free(s->name);
	}
	r->n = j + 1;
	/* one order per plane: its first sighting */
	for (g = 0; g < r->n; g = j) {
		size_t order = r->rows[g].order;

		for (j = g; j < r->n && !strcmp(r->rows[j].plane, r->rows[g].plane); j++)
			if (r->rows[j].order < order)
				order = r->rows[j].order;
		for (i = g; i < j; i++)
			r->rows[i].order = order;
	}
	qsort(r->rows, r->n, sizeof(*r->rows), cmp_shown);
	return 0;
}
