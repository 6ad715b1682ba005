/* SPDX-License-Identifier: Apache-2.0 */
/* The report's timeline strips (an_report.h). */
#include <stdlib.h>
#include <string.h>

#include "an_report.h"
#include "xp_hmap.h"
#include "xp_sat.h"

/*
 * Device dev's strip: its executions placed on the window [wlo, wlo + wspan)
 * of its own times (wspan 0: the strip's own span, from its first start).
 */
static int strip_fill(const struct an_exec_list *l, uint32_t dev, size_t width, double wlo, double wspan,
		      struct an_rep_strip *s)
{
	struct xp_hmap names = {0};
	float *best = NULL;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t i, b;
	int ret = XP_ERR_NOMEM;

	for (i = 0; i < l->n; i++) {
		const struct an_exec *x = &l->execs[i];
		int64_t end = xp_sat_add(x->start_ps, x->span_ps);

		if (x->device != dev)
			continue;
		if (x->start_ps < lo)
			lo = x->start_ps;
		if (end > hi)
			hi = end;
		s->execs++;
	}
	if (!(s->device = strdup(l->devices[dev].name)) || !(s->cols = calloc(width, sizeof(*s->cols))) ||
	    !(best = calloc(width, sizeof(*best))))
		goto out;
	s->busy_ps = l->devices[dev].busy_ps;
	s->span_ps = xp_sat_sub(hi, lo);
	for (b = 0; b < width; b++)
		s->cols[b].fn = -1;
	if (!(wspan > 0)) {
		wlo = (double)lo;
		wspan = (double)s->span_ps;
	}
	for (i = 0; i < l->n && wspan > 0; i++) {
		const struct an_exec *x = &l->execs[i];
		double x0, x1, scale = (double)width / wspan;
		size_t b0, b1, fn;

		if (x->device != dev)
			continue;
		x0 = ((double)x->start_ps - wlo) * scale;
		if (x0 < 0)
			x0 = 0;
		x1 = x0 + (double)x->span_ps * scale;
		if (x1 > (double)width)
			x1 = (double)width;
		b0 = (size_t)x0;
		b1 = (size_t)x1 + ((double)(size_t)x1 < x1);
		if (b1 > width)
			b1 = width;
		if (b1 == b0 && b0 < width)
			b1 = b0 + 1;	/* an instant still shows in its column */
		fn = s->nfns;
		switch (xp_hmap_get_or_put(&names, x->name, &fn)) {
		case 0:
			{
				char **m = realloc(s->fns, (s->nfns + 1) * sizeof(*m));

				if (!m)
					goto out;
				s->fns = m;
				if (!(s->fns[s->nfns] = strdup(x->name)))
					goto out;
				s->nfns++;
			}
			break;
		case 1:
			break;
		default:
			goto out;
		}
		for (b = b0; b < b1; b++) {
			double a = x0 > (double)b ? x0 : (double)b, e = x1 < (double)(b + 1) ? x1 : (double)(b + 1);
			float cov = (float)(e > a ? e - a : 0);

			if (x->span_ps == 0)
				cov = 0;
			s->cols[b].cover = s->cols[b].cover + cov > 1 ? 1 : s->cols[b].cover + cov;
			if (s->cols[b].fn < 0 || cov > best[b]) {
				best[b] = cov;
				s->cols[b].fn = (int32_t)fn;
			}
		}
	}
	ret = 0;
out:
	free(best);
	xp_hmap_release(&names);
	return ret;
}

static int strip_cmp(const void *a, const void *b)
{
	return an_name_cmp(((const struct an_rep_strip *)a)->device, ((const struct an_rep_strip *)b)->device);
}

/*
 * The window of every device's executions on one clock (base_ns: each
 * device's plane base): out->lo_ps and span_ps from the earliest base's, and
 * off[d] each device's base after it, in ps. 0, or -1 when the bases lie
 * too far apart for int64 picoseconds (then each strip keeps its own span).
 */
static int shared_window(const struct an_exec_list *l, const int64_t *base_ns, int64_t *off,
			 struct an_rep_timeline *out)
{
	int64_t minb = INT64_MAX;
	__int128 lo = 0, hi = 0;
	size_t i;
	int have = 0;

	for (i = 0; i < l->ndevices; i++)
		if (base_ns[i] < minb)
			minb = base_ns[i];
	for (i = 0; i < l->ndevices; i++) {
		__int128 o = ((__int128)base_ns[i] - minb) * 1000;

		if (o > INT64_MAX / 2)
			return -1;
		off[i] = (int64_t)o;
	}
	for (i = 0; i < l->n; i++) {
		const struct an_exec *x = &l->execs[i];
		__int128 s = (__int128)off[x->device] + x->start_ps, e = s + x->span_ps;

		if (!have || s < lo)
			lo = s;
		if (!have || e > hi)
			hi = e;
		have = 1;
	}
	if (!have || hi - lo > INT64_MAX || lo < INT64_MIN || lo > INT64_MAX)
		return -1;
	out->lo_ps = (int64_t)lo;
	out->span_ps = (int64_t)(hi - lo);
	out->shared = 1;
	return 0;
}

int an_rep_timeline(const struct an_exec_list *l, const int64_t *base_ns, size_t width, struct an_rep_timeline *out,
		    struct xp_err *err)
{
	int64_t *off = calloc(l->ndevices + 1, sizeof(*off));
	uint32_t d;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->width = width;
	if (!off)
		goto nomem;
	if (!width) {
		free(off);
		return 0;
	}
	if (!(out->strips = calloc(l->ndevices + 1, sizeof(*out->strips))))
		goto nomem;
	if (base_ns && shared_window(l, base_ns, off, out))
		memset(off, 0, (l->ndevices + 1) * sizeof(*off));	/* each strip on its own span */
	for (d = 0; d < l->ndevices; d++) {
		for (i = 0; i < l->n && l->execs[i].device != d; i++)
			;
		if (i == l->n)
			continue;
		if (strip_fill(l, d, width, out->shared ? (double)out->lo_ps - (double)off[d] : 0,
			       out->shared ? (double)out->span_ps : 0, &out->strips[out->n++]))
			goto nomem;
	}
	free(off);
	off = NULL;
	/* in the devices table's order (GPU:2 before GPU:10) */
	qsort(out->strips, out->n, sizeof(*out->strips), strip_cmp);
	return 0;
nomem:
	free(off);
	an_rep_timeline_release(out);
	return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
}

void an_rep_timeline_release(struct an_rep_timeline *tl)
{
	size_t i, j;

	for (i = 0; tl->strips && i <= tl->n; i++) {
		struct an_rep_strip *s = &tl->strips[i];

		free(s->device);
		for (j = 0; j < s->nfns; j++)
			free(s->fns[j]);
		free(s->fns);
		free(s->cols);
	}
	free(tl->strips);
	memset(tl, 0, sizeof(*tl));
}
