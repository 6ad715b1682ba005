#include "an_planes.h"

#include <stdlib.h>
#include <string.h>

#include "an_exec.h"

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

int an_planes_describe(const struct xp_trace *t, struct an_planes *out, struct xp_err *err)
{
	size_t i, j, k;

	memset(out, 0, sizeof(*out));
	out->planes = calloc(t->nplanes + 1, sizeof(*out->planes));
	if (!out->planes)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];
		struct an_plane_info *pi = &out->planes[i];
		int64_t lo = 0, hi = 0;
		int any = 0;

		out->n++;
		pi->id = p->id;
		pi->name = p->name;
		pi->is_device = an_is_device_plane(p->name);
		pi->nlines = p->nlines;
		pi->events = p->nevents;
		out->events += p->nevents;
		device_facts(p, &pi->dev);
		pi->lines = calloc(p->nlines + 1, sizeof(*pi->lines));
		if (!pi->lines)
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		for (j = 0; j < p->nlines; j++) {
			const struct xp_line *l = &p->lines[j];
			struct an_plane_line *ol = &pi->lines[j];

			ol->id = l->id;
			ol->name = l->name;
			ol->events = l->nevents;
			for (k = l->first_event; k < l->first_event + l->nevents; k++) {
				const struct xp_event *e = &p->events[k];
				int first = k == l->first_event;

				if (first || e->start_ps < ol->first_ps)
					ol->first_ps = e->start_ps;
				if (first || e->start_ps + e->dur_ps > ol->last_end_ps)
					ol->last_end_ps = e->start_ps + e->dur_ps;
			}
			if (!l->nevents)
				continue;
			if (!any || ol->first_ps < lo)
				lo = ol->first_ps;
			if (!any || ol->last_end_ps > hi)
				hi = ol->last_end_ps;
			any = 1;
		}
		pi->span_ps = hi - lo;
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
