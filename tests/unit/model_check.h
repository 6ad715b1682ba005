/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checks on decoded models, shared by the reader tests and the fuzz harnesses:
 *   model_differ()  - the first difference between two traces, field by field;
 *   model_check()   - the invariants every reader promises (indices in range,
 *                     arrays sorted, strings terminated), touching every
 *                     string and array so that a sanitizer sees bad pointers.
 * Header-only (static functions) like test.h; needs xp_model.h.
 */
#ifndef MODEL_CHECK_H
#define MODEL_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "xp_model.h"

struct model_diff {
	char msg[512];
};

static inline int model_note(struct model_diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline int model_note(struct model_diff *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	return 1;
}

/* ---- two models ------------------------------------------------------------------ */

static inline int model_str_differ(const char *a, const char *b)
{
	return !a || !b || strcmp(a, b);
}

static inline int model_stat_differ(const struct xp_stat *a, const struct xp_stat *b)
{
	if (a->meta_id != b->meta_id || a->type != b->type)
		return 1;
	switch (a->type) {
	case XP_STAT_DOUBLE:
		return memcmp(&a->v.d, &b->v.d, sizeof(a->v.d)) != 0;
	case XP_STAT_UINT64:
	case XP_STAT_REF:
		return a->v.u != b->v.u;
	case XP_STAT_INT64:
		return a->v.i != b->v.i;
	case XP_STAT_STR:
	case XP_STAT_BYTES:
		return a->v.s.len != b->v.s.len || !a->v.s.p || !b->v.s.p ||
		       memcmp(a->v.s.p, b->v.s.p, a->v.s.len) || b->v.s.p[b->v.s.len] != '\0';
	default:
		return 0;
	}
}

/* Whether an event's own stat s of plane p is one a model read in mode keeps. */
static inline int model_stat_kept(const struct xp_plane *p, const struct xp_stat *s,
				  enum xp_event_stats mode)
{
	int k;

	if (mode == XP_EVSTATS_ALL)
		return 1;
	for (k = 0; mode == XP_EVSTATS_KEYS && k < XP_KEY_COUNT; k++)
		if (p->has_key[k] && p->key_id[k] == s->meta_id)
			return 1;
	return 0;
}

/*
 * Event i's own stats in a (read with every stat) that mode keeps, against
 * b's (read in mode): the same, in the same order.
 */
static inline int model_event_stats_differ(const struct xp_plane *a, const struct xp_plane *b,
					   size_t i, enum xp_event_stats mode)
{
	const struct xp_event *x = &a->events[i], *y = &b->events[i];
	size_t j, k = 0;

	for (j = 0; j < x->nstats; j++) {
		const struct xp_stat *s = &a->stats[x->stats_first + j];

		if (!model_stat_kept(a, s, mode))
			continue;
		if (k >= y->nstats || model_stat_differ(s, &b->stats[y->stats_first + k]))
			return 1;
		k++;
	}
	return k != y->nstats;
}

/*
 * Planes a and b, b read keeping the events' stats that mode says (a: all);
 * with XP_EVSTATS_ALL, identical.
 */
static inline int model_plane_differ_mode(const struct xp_plane *a, const struct xp_plane *b,
					  size_t pi, enum xp_event_stats mode, struct model_diff *d)
{
	size_t i, shared;
	int k;

	if (a->id != b->id || model_str_differ(a->name, b->name) || a->base_ns != b->base_ns)
		return model_note(d, "plane %zu: id, name or base", pi);
	if (a->nlines != b->nlines || a->nevents != b->nevents || a->nevmetas != b->nevmetas ||
	    a->nstatmetas != b->nstatmetas || (mode == XP_EVSTATS_ALL && a->nstats != b->nstats))
		return model_note(d, "plane %zu: counts %zu/%zu/%zu/%zu/%zu vs %zu/%zu/%zu/%zu/%zu", pi,
				  a->nlines, a->nevents, a->nevmetas, a->nstatmetas, a->nstats,
				  b->nlines, b->nevents, b->nevmetas, b->nstatmetas, b->nstats);
	for (i = 0; i < a->nlines; i++) {
		const struct xp_line *x = &a->lines[i], *y = &b->lines[i];

		if (x->id != y->id || model_str_differ(x->name, y->name) ||
		    model_str_differ(x->display_name, y->display_name) ||
		    x->timestamp_ns != y->timestamp_ns || x->duration_ps != y->duration_ps ||
		    x->first_event != y->first_event || x->nevents != y->nevents)
			return model_note(d, "plane %zu: line %zu", pi, i);
	}
	for (i = 0; i < a->nevents; i++) {
		const struct xp_event *x = &a->events[i], *y = &b->events[i];

		if (x->start_ps != y->start_ps || x->dur_ps != y->dur_ps || x->meta != y->meta ||
		    x->line != y->line ||
		    (mode == XP_EVSTATS_ALL ? x->stats_first != y->stats_first || x->nstats != y->nstats
					    : model_event_stats_differ(a, b, i, mode)))
			return model_note(d, "plane %zu: event %zu", pi, i);
	}
	if (a->naggs != b->naggs)
		return model_note(d, "plane %zu: %zu aggregated events vs %zu", pi, a->naggs, b->naggs);
	for (i = 0; i < a->naggs; i++) {
		const struct xp_agg *x = &a->aggs[i], *y = &b->aggs[i];

		if (x->meta != y->meta || x->line != y->line || x->occurrences != y->occurrences ||
		    x->dur_ps != y->dur_ps || x->self_ps != y->self_ps || x->min_ps != y->min_ps ||
		    x->odd != y->odd)
			return model_note(d, "plane %zu: aggregated event %zu", pi, i);
	}
	for (i = 0; i < a->nlines; i++)
		if (a->lines[i].naggs != b->lines[i].naggs)
			return model_note(d, "plane %zu: line %zu: aggregated events", pi, i);
	/* <= : the sentinel entry for a missing id too. */
	for (i = 0; i <= a->nevmetas; i++) {
		const struct xp_evmeta *x = &a->evmetas[i], *y = &b->evmetas[i];

		if (x->id != y->id || model_str_differ(x->name, y->name) ||
		    model_str_differ(x->display_name, y->display_name) ||
		    x->stats_first != y->stats_first || x->nstats != y->nstats)
			return model_note(d, "plane %zu: event metadata %zu", pi, i);
	}
	for (i = 0; i < a->nstatmetas; i++)
		if (a->statmetas[i].id != b->statmetas[i].id ||
		    model_str_differ(a->statmetas[i].name, b->statmetas[i].name))
			return model_note(d, "plane %zu: stat metadata %zu", pi, i);
	if (a->pstats_first != b->pstats_first || a->npstats != b->npstats)
		return model_note(d, "plane %zu: plane stats range", pi);
	/* Metadata's and the plane's stats come first in the pool: always all kept. */
	shared = mode == XP_EVSTATS_ALL ? a->nstats : (size_t)a->pstats_first + a->npstats;
	if (shared > b->nstats)
		return model_note(d, "plane %zu: %zu stats, fewer than metadata and plane hold", pi,
				  b->nstats);
	for (i = 0; i < shared; i++)
		if (model_stat_differ(&a->stats[i], &b->stats[i]))
			return model_note(d, "plane %zu: stat %zu", pi, i);
	for (k = 0; k < XP_KEY_COUNT; k++)
		if (a->has_key[k] != b->has_key[k] || (a->has_key[k] && a->key_id[k] != b->key_id[k]))
			return model_note(d, "plane %zu: key %d", pi, k);
	return 0;
}

static inline int model_plane_differ(const struct xp_plane *a, const struct xp_plane *b, size_t pi,
				     struct model_diff *d)
{
	return model_plane_differ_mode(a, b, pi, XP_EVSTATS_ALL, d);
}

static inline int model_strs_differ(const char **a, size_t na, const char **b, size_t nb)
{
	size_t i;

	if (na != nb)
		return 1;
	for (i = 0; i < na; i++)
		if (model_str_differ(a[i], b[i]))
			return 1;
	return 0;
}

/*
 * 0 if model b, read keeping the events' stats mode says, is model a (read
 * with all) with only those stats; else 1 with the first difference in d.
 */
static inline int model_differ_mode(const struct xp_trace *a, const struct xp_trace *b,
				    enum xp_event_stats mode, struct model_diff *d)
{
	const struct xp_read_counts *x = &a->counts, *y = &b->counts;
	size_t i;

	if (a->nplanes != b->nplanes)
		return model_note(d, "%zu planes vs %zu", a->nplanes, b->nplanes);
	for (i = 0; i < a->nplanes; i++)
		if (model_plane_differ_mode(&a->planes[i], &b->planes[i], i, mode, d))
			return 1;
	if (model_strs_differ(a->hostnames, a->nhostnames, b->hostnames, b->nhostnames) ||
	    model_strs_differ(a->errors, a->nerrors, b->errors, b->nerrors) ||
	    model_strs_differ(a->warnings, a->nwarnings, b->warnings, b->nwarnings))
		return model_note(d, "hostnames, errors or warnings");
	if (x->aggregated_events != y->aggregated_events ||
	    x->events_missing_metadata != y->events_missing_metadata ||
	    x->stats_missing_metadata != y->stats_missing_metadata ||
	    x->duplicate_metadata != y->duplicate_metadata)
		return model_note(d, "read counts");
	return 0;
}

/* 0 if the two models are identical, else 1 with the first difference in d. */
static inline int model_differ(const struct xp_trace *a, const struct xp_trace *b, struct model_diff *d)
{
	return model_differ_mode(a, b, XP_EVSTATS_ALL, d);
}

/* ---- one model ------------------------------------------------------------------- */

/* A string the model hands out: non-NULL, and strlen reads it (a sanitizer checks the bytes). */
static inline int model_bad_str(const char *s)
{
	volatile size_t n;

	if (!s)
		return 1;
	n = strlen(s);
	(void)n;
	return 0;
}

static inline int model_range_bad(uint64_t first, uint64_t n, uint64_t size)
{
	return first > size || n > size - first;
}

static inline int model_check_plane(const struct xp_plane *p, size_t pi, struct model_diff *d)
{
	size_t i, j, next = 0;
	int k;

	if (model_bad_str(p->name))
		return model_note(d, "plane %zu: no name", pi);
	if ((p->nlines && !p->lines) || (p->nevents && !p->events) || !p->evmetas ||
	    (p->nstatmetas && !p->statmetas) || (p->nstats && !p->stats))
		return model_note(d, "plane %zu: an array is missing", pi);
	for (i = 0; i < p->nlines; i++) {
		const struct xp_line *l = &p->lines[i];

		if (model_bad_str(l->name) || model_bad_str(l->display_name))
			return model_note(d, "plane %zu: line %zu: no name", pi, i);
		/* Events are stored line by line, each line's in one run. */
		if (l->first_event != next || model_range_bad(l->first_event, l->nevents, p->nevents))
			return model_note(d, "plane %zu: line %zu: events %zu+%zu of %zu", pi, i,
					  l->first_event, l->nevents, p->nevents);
		for (j = l->first_event; j < l->first_event + l->nevents; j++)
			if (p->events[j].line != i)
				return model_note(d, "plane %zu: event %zu names line %u, is in %zu", pi, j,
						  p->events[j].line, i);
		next = l->first_event + l->nevents;
	}
	if (next != p->nevents)
		return model_note(d, "plane %zu: %zu events, lines hold %zu", pi, p->nevents, next);
	for (i = 0; i < p->nevents; i++) {
		const struct xp_event *e = &p->events[i];
		int64_t end;

		if (e->meta > p->nevmetas || e->line >= p->nlines ||
		    model_range_bad(e->stats_first, e->nstats, p->nstats))
			return model_note(d, "plane %zu: event %zu: an index out of range", pi, i);
		if (e->dur_ps < 0 || __builtin_add_overflow(e->start_ps, e->dur_ps, &end))
			return model_note(d, "plane %zu: event %zu: negative or overflowing time", pi, i);
		if (model_bad_str(xp_event_name(p, e)))
			return model_note(d, "plane %zu: event %zu: no name", pi, i);
	}
	for (i = 0, j = 0; i < p->naggs; i++) {
		const struct xp_agg *a = &p->aggs[i];

		if (a->meta > p->nevmetas || a->line >= p->nlines || (i && a->line < p->aggs[i - 1].line))
			return model_note(d, "plane %zu: aggregated event %zu: an index out of range or order", pi, i);
		if (a->occurrences < 0 || a->dur_ps < 0 || a->self_ps < -1 || a->self_ps > a->dur_ps ||
		    a->min_ps < -1 || a->min_ps > a->dur_ps)
			return model_note(d, "plane %zu: aggregated event %zu: a count or time out of range", pi, i);
	}
	for (i = 0, j = 0; i < p->nlines; i++)
		j += p->lines[i].naggs;
	if (j != p->naggs || (p->naggs && !p->aggs))
		return model_note(d, "plane %zu: %zu aggregated events, lines hold %zu", pi, p->naggs, j);
	for (i = 0; i <= p->nevmetas; i++) {
		const struct xp_evmeta *m = &p->evmetas[i];

		if (model_bad_str(m->name) || model_bad_str(m->display_name) ||
		    model_range_bad(m->stats_first, m->nstats, p->nstats))
			return model_note(d, "plane %zu: event metadata %zu", pi, i);
		if (i < p->nevmetas && xp_plane_meta_index(p, m->id) != i)
			return model_note(d, "plane %zu: event metadata id %lld is not found at %zu", pi,
					  (long long)m->id, i);
		if (i && i < p->nevmetas && p->evmetas[i - 1].id >= m->id)
			return model_note(d, "plane %zu: event metadata not sorted and unique at %zu", pi, i);
	}
	if (p->evmetas[p->nevmetas].nstats || strcmp(p->evmetas[p->nevmetas].name, ""))
		return model_note(d, "plane %zu: the missing-metadata entry is not empty", pi);
	for (i = 0; i < p->nstatmetas; i++) {
		if (model_bad_str(p->statmetas[i].name))
			return model_note(d, "plane %zu: stat metadata %zu: no name", pi, i);
		if (i && p->statmetas[i - 1].id >= p->statmetas[i].id)
			return model_note(d, "plane %zu: stat metadata not sorted and unique at %zu", pi, i);
	}
	for (i = 0; i < p->nstats; i++) {
		const struct xp_stat *s = &p->stats[i];
		char buf[64];

		if (s->type > XP_STAT_REF)
			return model_note(d, "plane %zu: stat %zu: type %u", pi, i, s->type);
		if ((s->type == XP_STAT_STR || s->type == XP_STAT_BYTES) &&
		    (!s->v.s.p || s->v.s.p[s->v.s.len] != '\0' ||
		     (s->type == XP_STAT_STR && strlen(s->v.s.p) != s->v.s.len)))
			return model_note(d, "plane %zu: stat %zu: string not as promised", pi, i);
		if (model_bad_str(xp_stat_name(p, s)))
			return model_note(d, "plane %zu: stat %zu: no name", pi, i);
		xp_stat_format(p, s, buf, sizeof(buf));
	}
	if (model_range_bad(p->pstats_first, p->npstats, p->nstats))
		return model_note(d, "plane %zu: plane stats out of range", pi);
	for (k = 0; k < XP_KEY_COUNT; k++) {
		if (!p->has_key[k])
			continue;
		for (i = 0; i < p->nstatmetas && p->statmetas[i].id != p->key_id[k]; i++)
			;
		if (i == p->nstatmetas)
			return model_note(d, "plane %zu: key %d names no stat metadata", pi, k);
	}
	return 0;
}

static inline int model_check_strs(const char **s, size_t n)
{
	size_t i;

	if (n && !s)
		return 1;
	for (i = 0; i < n; i++)
		if (model_bad_str(s[i]))
			return 1;
	return 0;
}

/* 0 if t keeps every promise of xp_model.h, else 1 with the broken one in d. */
static inline int model_check(const struct xp_trace *t, struct model_diff *d)
{
	size_t i;

	if (t->nplanes && !t->planes)
		return model_note(d, "no plane array");
	for (i = 0; i < t->nplanes; i++)
		if (model_check_plane(&t->planes[i], i, d))
			return 1;
	if (model_check_strs(t->hostnames, t->nhostnames) || model_check_strs(t->errors, t->nerrors) ||
	    model_check_strs(t->warnings, t->nwarnings))
		return model_note(d, "hostnames, errors or warnings");
	return 0;
}

#endif
