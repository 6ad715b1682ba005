/* SPDX-License-Identifier: Apache-2.0 */
#include "an_planes.h"

#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "xp_sat.h"
#include "xp_stray.h"

static int stat_u64(const struct xp_plane *p, const char *name, uint64_t *v)
{
	const struct xp_stat *s = xp_plane_stat(p, name);

	return s && !xp_stat_u64(s, v);
}

static const char *stat_str(const struct xp_plane *p, const char *name)
{
	const struct xp_stat *s = xp_plane_stat(p, name);
	size_t len;

	/* Only text stats; values are NUL-terminated in the model's arena. */
	return s && (s->type == XP_STAT_STR || s->type == XP_STAT_REF) ? xp_stat_str(p, s, &len) : NULL;
}

static void device_facts(const struct xp_plane *p, struct an_device_facts *d)
{
	memset(d, 0, sizeof(*d));
	d->vendor = stat_str(p, "device_vendor");
	d->model = stat_str(p, "gpu_device_name");
	if (!d->model)
		d->model = stat_str(p, "device_type_string");
	d->has_clock = stat_u64(p, "clock_rate", &d->clock_khz);
	d->has_cores = stat_u64(p, "core_count", &d->cores);
	d->has_mem_bw = stat_u64(p, "memory_bandwidth", &d->mem_bw);
	d->has_mem_size = stat_u64(p, "memory_size", &d->mem_size);
	d->has_cc = stat_u64(p, "compute_cap_major", &d->cc_major) &&
		    stat_u64(p, "compute_cap_minor", &d->cc_minor);
}

/* Earliest start and latest end of the events [first, first + n) of p for which skip is 0. */
static int events_span(const struct xp_plane *p, size_t first, size_t n, const unsigned char *skip,
		       int64_t *lo, int64_t *hi)
{
	size_t k;
	int any = 0;

	for (k = first; k < first + n; k++) {
		const struct xp_event *e = &p->events[k];

		if (skip && skip[k])
			continue;
		if (!any || e->start_ps < *lo)
			*lo = e->start_ps;
		if (!any || e->start_ps + e->dur_ps > *hi)
			*hi = e->start_ps + e->dur_ps;
		any = 1;
	}
	return any;
}

/* The plane's span from its lines', INT64_MAX when it does not fit. */
static int64_t lines_span(const struct an_plane_info *pi)
{
	int64_t lo = 0, hi = 0;
	size_t j;
	int any = 0;

	for (j = 0; j < pi->nlines; j++) {
		const struct an_plane_line *ol = &pi->lines[j];

		if (ol->events == ol->stray_ends)
			continue;
		if (!any || ol->first_ps < lo)
			lo = ol->first_ps;
		if (!any || ol->last_end_ps > hi)
			hi = ol->last_end_ps;
		any = 1;
	}
	return xp_sat_sub(hi, lo);
}

/* Each line's spans from its events, stray ends left out. */
static int spans_of_events(const struct xp_plane *p, struct an_plane_info *pi, struct xp_err *err)
{
	unsigned char *stray = malloc(p->nevents + 1);
	int64_t alo = 0, ahi = 0;
	size_t j, k;
	int ret;

	if (!stray)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	ret = xp_plane_stray_ends(p, NULL, stray, &pi->stray_ends, err);
	for (j = 0; !ret && j < p->nlines; j++) {
		const struct xp_line *l = &p->lines[j];
		struct an_plane_line *ol = &pi->lines[j];

		for (k = l->first_event; pi->stray_ends && k < l->first_event + l->nevents; k++)
			ol->stray_ends += stray[k];
		events_span(p, l->first_event, l->nevents, pi->stray_ends ? stray : NULL,
			    &ol->first_ps, &ol->last_end_ps);
	}
	pi->span_ps = lines_span(pi);
	pi->span_all_ps = pi->span_ps;
	if (!ret && pi->stray_ends && events_span(p, 0, p->nevents, NULL, &alo, &ahi))
		pi->span_all_ps = xp_sat_sub(ahi, alo);
	free(stray);
	return ret;
}

/* Each line's spans from the summaries of a plane read in pieces; XP_ERR_AGAIN: read it whole. */
static int spans_of_pieces(const struct xp_plane *p, struct an_plane_info *pi, struct xp_err *err)
{
	struct xp_plane_span *sp = calloc(p->nlines + 1, sizeof(*sp));
	size_t j;
	int ret;

	if (!sp)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	ret = xp_plane_spans_no_stray(p, sp, err);
	for (j = 0; !ret && j < p->nlines; j++) {
		pi->lines[j].first_ps = sp[j].first_ps;
		pi->lines[j].last_end_ps = sp[j].last_end_ps;
	}
	pi->span_ps = pi->span_all_ps = lines_span(pi);
	free(sp);
	return ret;
}

/*
 * Fills pi from plane p: from its events, or as read in pieces (free
 * pi->lines even on failure).
 */
static int describe_plane(const struct xp_plane *p, struct an_plane_info *pi, struct xp_err *err)
{
	size_t j;

	memset(pi, 0, sizeof(*pi));
	pi->id = p->id;
	pi->name = p->name;
	pi->is_device = an_is_device_plane(p->name);
	pi->nlines = p->nlines;
	pi->events = p->nevents;
	pi->aggregated = p->naggs;
	device_facts(p, &pi->dev);
	pi->lines = calloc(p->nlines + 1, sizeof(*pi->lines));
	if (!pi->lines)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (j = 0; j < p->nlines; j++) {
		pi->lines[j].id = p->lines[j].id;
		pi->lines[j].name = p->lines[j].name;
		pi->lines[j].events = p->lines[j].nevents;
		pi->lines[j].aggregated = p->lines[j].naggs;
	}
	return p->events_released ? spans_of_pieces(p, pi, err) : spans_of_events(p, pi, err);
}

void an_planes_line_events(const struct xp_plane *p, struct xp_line *l, const struct xp_event *ev,
			   size_t n, void *ctx)
{
	(void)p;
	(void)ctx;
	xp_line_spans_add(l->user, ev, n);
}

int an_planes_plane_read(struct xp_plane *p, void *ctx, struct xp_err *err)
{
	struct an_plane_info *pi = calloc(1, sizeof(*pi));
	int ret;

	(void)ctx;
	if (!pi)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	ret = describe_plane(p, pi, err);
	if (ret) {
		an_planes_user_free(pi);
		return ret;
	}
	p->user = pi;
	return 0;
}

void an_planes_user_free(void *user)
{
	struct an_plane_info *pi = user;

	if (pi)
		free(pi->lines);
	free(pi);
}

int an_planes_describe(struct xp_trace *t, struct an_planes *out, struct xp_err *err)
{
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	out->planes = calloc(t->nplanes + 1, sizeof(*out->planes));
	if (!out->planes)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (i = 0; i < t->nplanes; i++) {
		struct xp_plane *p = &t->planes[i];
		struct an_plane_info *pi = &out->planes[i];

		out->n++;
		if (p->user) {		/* described as it was read: taken over */
			*pi = *(struct an_plane_info *)p->user;
			free(p->user);
			p->user = NULL;
		} else if (p->events_released) {	/* its plane_read failed: not as read */
			return xp_err_set(err, XP_ERR_USAGE, "plane '%s': events released undescribed",
					  p->name);
		} else if ((ret = describe_plane(p, pi, err))) {
			return ret;
		}
		out->events += pi->events;
		out->aggregated += pi->aggregated;
		out->stray_ends += pi->stray_ends;
	}
	return 0;
}

void an_planes_release(struct an_planes *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->planes[i].lines);
	free(p->planes);
	memset(p, 0, sizeof(*p));
}
