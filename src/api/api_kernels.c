/* SPDX-License-Identifier: Apache-2.0 */
/* The public API's kernels analysis (include/xplane_stat.h) over an_kernels. */
#include "api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_analysis.h"
#include "an_kernels.h"

/* The caller's struct xps_kernels is the first member: its pointer is the holder's. */
struct kern_holder {
	struct xps_kernels pub;
	struct xps_kernel *rows;
	struct xps_copy_kind copies[AN_KIND_COUNT];
	struct an_kern_result res;	/* the rows' strings */
	struct xp_notes notes;		/* the warnings */
};

static int fill(struct kern_holder *h, struct xp_err *err)
{
	const struct an_kern_result *r = &h->res;
	struct xps_kernels *k = &h->pub;
	size_t i, n = 0;

	if (API_CALLOC(h->rows, r->nrows + 1, err))
		return XP_ERR_NOMEM;
	for (i = 0; i < r->nrows; i++) {
		const struct an_kern_row *row = &r->rows[i];
		struct xps_kernel *o = &h->rows[i];

		o->name = row->name;
		o->tensor_core = row->tensor_core;
		o->instances = row->instances;
		o->total_ns = api_ns(row->total);
		o->mean_ns = row->mean / 1000.0;
		o->median_ns = row->median / 1000.0;
		o->min_ns = api_ns((double)row->min);
		o->max_ns = api_ns((double)row->max);
		o->std_ns = row->std / 1000.0;
		o->p90_ns = api_ns((double)row->p90);
		o->p99_ns = api_ns((double)row->p99);
		o->share = row->share;
	}
	for (i = 0; i < AN_KIND_COUNT; i++) {
		const struct an_copy *c = &r->copies[i];
		struct xps_copy_kind *o = &h->copies[n];

		if (i == AN_KIND_KERNEL || !c->count)
			continue;
		o->kind = an_kind_name((enum an_kind)i);
		o->count = c->count;
		o->total_ns = api_ns(c->total);
		o->mean_ns = c->total / (double)c->count / 1000.0;
		o->bytes = c->bytes;
		o->bytes_saturated = c->bytes_saturated;
		o->without_bytes = c->no_bytes;
		o->gb_per_s = c->bytes_time > 0 ? (double)c->bytes / c->bytes_time * 1000.0 : NAN;
		n++;
	}
	k->rows = h->rows;
	k->nrows = r->nrows;
	k->copies = h->copies;
	k->ncopies = n;
	k->inputs = r->inputs;
	k->devices = r->devices;
	k->stream_lines = r->stream_lines;
	k->kernel_instances = r->kernel_events;
	k->kernel_total_ns = api_ns(r->kernel_ps);
	k->kernel_busy_ns = api_ns((double)r->kernel_busy_ps);
	k->tensor_core_ns = api_ns(r->tensor_core_ps);
	k->copy_events = r->copy_events;
	k->stray_end_events = r->stray_events;
	k->zero_duration_kernels = r->zero_events;
	k->kernel_details_missing = r->no_config;
	k->kernel_details_unparsable = r->bad_config;
	k->kernel_details_implausible = r->implausible_config;
	k->kernel_details_partial = r->partial_config;
	return 0;
}

int xps_kernels_compute(xps_trace *const *traces, size_t ntraces, const struct xps_kernels_opts *opts,
			struct xps_kernels **out, char *errbuf, size_t errlen)
{
	struct an_kern_opts ko = {.by = AN_KERN_BY_NAME};
	struct xp_err err = {0};
	struct kern_holder *h = NULL;
	int ret;

	if (out)
		*out = NULL;
	if ((ret = api_check_traces("xps_kernels_compute", traces, ntraces, out != NULL, &err)))
		goto out;
	ko.device = opts ? opts->device : NULL;
	if ((ret = API_CALLOC(h, 1, &err)))
		goto out;
	an_kern_init(&h->res, &ko);
	if ((ret = api_add_traces(traces, ntraces, &an_kernels_analysis, &h->res, &ko, NULL, NULL, &h->notes, &err)) ||
	    (ret = an_kern_finish(&h->res, &err)) ||
	    (ret = api_warnings(&an_kernels_analysis, &h->res, ntraces > 1, &h->notes, &h->pub.warnings,
				&h->pub.nwarnings, &err)))
		goto out;
	if ((ret = fill(h, &err)))
		goto out;
	*out = &h->pub;
	h = NULL;
out:
	xps_kernels_free(h ? &h->pub : NULL);
	return ret ? api_fail(&err, errbuf, errlen) : 0;
}

void xps_kernels_free(struct xps_kernels *k)
{
	struct kern_holder *h = (struct kern_holder *)k;

	if (!h)
		return;
	an_kern_release(&h->res);
	xp_notes_release(&h->notes);
	free(h->rows);
	free(h);
}
