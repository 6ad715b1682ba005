/* SPDX-License-Identifier: Apache-2.0 */
/* The report's timeline strips (an_report.h). */
#include <stdlib.h>
#include <string.h>

#include "an_report.h"
#include "xp_hmap.h"
#include "xp_sat.h"

static int strip_fill(const struct an_exec_list *l, uint32_t dev, size_t width, struct an_rep_strip *s)
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
	for (i = 0; i < l->n && s->span_ps > 0; i++) {
		const struct an_exec *x = &l->execs[i];
		double x0, x1, scale = (double)width / (double)s->span_ps;
		size_t b0, b1, fn;

		if (x->device != dev)
			continue;
		x0 = ((double)x->start_ps - (double)lo) * scale;
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

int an_rep_timeline(const struct an_exec_list *l, size_t width, struct an_rep_timeline *out,
		    struct xp_err *err)
{
	uint32_t d;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->width = width;
	if (!width)
		return 0;
	if (!(out->strips = calloc(l->ndevices + 1, sizeof(*out->strips))))
		goto nomem;
	for (d = 0; d < l->ndevices; d++) {
		for (i = 0; i < l->n && l->execs[i].device != d; i++)
			;
		if (i == l->n)
			continue;
		if (strip_fill(l, d, width, &out->strips[out->n++]))
			goto nomem;
	}
	/* in the devices table's order (GPU:2 before GPU:10) */
	qsort(out->strips, out->n, sizeof(*out->strips), strip_cmp);
	return 0;
nomem:
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
