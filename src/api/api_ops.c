/* SPDX-License-Identifier: Apache-2.0 */
/* The public API's ops analysis (include/xplane_stat.h) over an_ops. */
#include "api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_analysis.h"
#include "an_ops.h"

_Static_assert(XPS_OPS_SORT_TIME == (int)AN_OPS_SORT_TIME && XPS_OPS_SORT_SELF == (int)AN_OPS_SORT_SELF &&
		       XPS_OPS_SORT_FLOPS == (int)AN_OPS_SORT_FLOPS && XPS_OPS_SORT_BYTES == (int)AN_OPS_SORT_BYTES,
	       "XPS_OPS_SORT_* are enum an_ops_sort's values");

/* The caller's struct xps_ops is the first member: its pointer is the holder's. */
struct ops_holder {
	struct xps_ops pub;
	struct xps_op *rows, *cats, *sources, *fws, *fwtypes;
	struct xps_ops_scope *scopes;
	struct xps_ops_line lines[AN_OP_LINES];
	struct xps_ops_device *devices;
	struct an_ops_result res;	/* the rows' strings */
	struct xp_notes notes;		/* the warnings */
};

static void fill_row(struct xps_op *o, const struct an_op_row *row, int cat)
{
	o->name = row->name;
	o->line = an_op_line_name(row->line);
	o->async = row->line == AN_OP_ASYNC;
	o->category = row->category;
	if (!cat) {
		o->hlo = row->hlo;
		o->module = row->module;
		o->has_program_id = row->has_program_id;
		o->program_id = row->program_id;
	}
	o->occurrences = row->occurrences;
	o->total_ns = api_ns((double)row->total_ps);
	o->self_ns = api_ns((double)row->self_ps);
	o->mean_ns = row->occurrences ? (double)row->total_ps / (double)row->occurrences / 1000.0 : 0;
	o->share = row->share;
	o->has_flops = an_sum_known(&row->flops, row->occurrences);
	o->flops = row->flops.v;
	o->has_model_flops = an_sum_known(&row->model_flops, row->occurrences);
	o->model_flops = row->model_flops.v;
	o->has_bytes_accessed = an_sum_known(&row->bytes, row->occurrences);
	o->bytes_accessed = row->bytes.v;
	o->flops_per_s = api_known(an_op_flops_per_s(row));
	o->bytes_per_s = api_known(an_op_bytes_per_s(row));
	o->intensity = api_known(an_op_intensity(row));
	o->bound_by = an_bound_name(row->bound);
	o->has_calls = an_op_calls_known(row);
	o->calls = o->has_calls ? row->calls : 0;
	o->cost_from = an_op_cost_from(row);
	o->calls_from = an_op_calls_from(row);
	o->call_mean_ns = o->has_calls ? an_op_call_mean_ps(row) / 1000.0 : NAN;
}

static void fill_scopes(struct ops_holder *h)
{
	const struct an_ops_result *r = &h->res;
	int64_t all = an_ops_scopes_total(r);
	size_t i;

	for (i = 0; i < r->nscopes; i++) {
		const struct an_scope_node *n = &r->scopes[i];
		const struct an_op_row *top = &r->rows[n->top];
		struct xps_ops_scope *x = &h->scopes[i];

		x->scope = n->path;
		x->name = n->name;
		x->depth = n->depth;
		x->total_ns = api_ns((double)n->total_ps);
		x->self_ns = api_ns((double)n->self_ps);
		x->share = all > 0 ? (double)n->total_ps / (double)all : 0;
		x->occurrences = n->occurrences;
		x->top_op = top->name;
		x->top_op_module = top->module;
		x->top_op_program_id = top->program_id;
		x->has_top_op_program_id = top->has_program_id;
	}
}

static int fill(struct ops_holder *h, struct xp_err *err)
{
	const struct an_ops_result *r = &h->res;
	struct xps_ops *o = &h->pub;
	size_t i, k, n = 0;

	if (API_CALLOC(h->rows, r->nrows + 1, err) || API_CALLOC(h->cats, r->ncats + 1, err) ||
	    API_CALLOC(h->devices, r->ndevices + 1, err) || API_CALLOC(h->sources, r->nsources + 1, err) ||
	    API_CALLOC(h->scopes, r->nscopes + 1, err) || API_CALLOC(h->fws, r->nframeworks + 1, err) ||
	    API_CALLOC(h->fwtypes, r->nfwtypes + 1, err))
		return XP_ERR_NOMEM;
	for (i = 0; i < r->nsources; i++)
		fill_row(&h->sources[i], &r->sources[i], 1);
	for (i = 0; i < r->nframeworks; i++)
		fill_row(&h->fws[i], &r->frameworks[i], 1);
	for (i = 0; i < r->nfwtypes; i++)
		fill_row(&h->fwtypes[i], &r->fwtypes[i], 1);
	fill_scopes(h);
	for (i = 0; i < r->nrows; i++)
		fill_row(&h->rows[i], &r->rows[i], 0);
	for (i = 0; i < r->ncats; i++)
		fill_row(&h->cats[i], &r->cats[i], 1);
	for (i = 0; i < AN_OP_LINES; i++) {
		if (!r->events[i])
			continue;
		h->lines[n] = (struct xps_ops_line){an_op_line_name((enum an_op_line)i), r->events[i], r->rows_in[i],
						    api_ns((double)r->total_ps[i]), api_ns((double)r->self_ps[i])};
		n++;
	}
	for (i = 0; i < r->ndevices; i++) {
		const struct an_ops_device *d = &r->devices[i];
		struct xps_ops_device *x = &h->devices[i];

		x->name = d->name;
		x->chip = d->chip;
		x->peak_source = an_peak_src_name(d->peak_src);
		x->peak_flops_per_s = d->peak_src ? api_known(d->peak_flops) : NAN;
		x->peak_bytes_per_s = d->peak_src ? api_known(d->peak_bw) : NAN;
		x->op_events = 0;
		for (k = 0; k < AN_OP_LINES; k++)
			x->op_events += d->events[k];
		x->stray_end_events = d->stray_events;
		x->partial_overlaps = d->partial_overlaps;
		x->odd_values = d->odd_values;
		x->kernels_without_hlo_op = d->kernels_no_op;
	}
	o->rows = h->rows;
	o->nrows = r->nrows;
	o->categories = h->cats;
	o->ncategories = r->opts.by_category ? r->ncats : 0;
	o->lines = h->lines;
	o->nlines = n;
	o->devices = h->devices;
	o->ndevices = r->ndevices;
	o->inputs = r->inputs;
	o->stray_end_events = r->stray_events;
	o->partial_overlaps = r->partial_overlaps;
	o->odd_values = r->odd_values;
	o->overflowed_sums = r->overflows;
	o->partial_sums = r->partial_sums;
	o->kernels_without_hlo_op = r->kernels_no_op;
	o->calls_from_host = r->calls_host;
	o->aggregated_occurrences = r->aggregated;
	o->sources = h->sources;
	o->nsources = r->opts.by_source ? r->nsources : 0;
	o->frameworks = h->fws;
	o->nframeworks = r->nframeworks;
	o->framework_types = h->fwtypes;
	o->nframework_types = r->nfwtypes;
	o->scopes = h->scopes;
	o->nscopes = r->nscopes;
	o->scopes_self_ns = api_ns((double)an_ops_scopes_total(r));
	o->gpu_cost = (struct xps_ops_gpu_cost){r->cost[AN_OP_COST_HLO], r->cost_no_flops, r->cost[AN_OP_COST_NO_CALLS],
						r->cost[AN_OP_COST_NO_INSTR], r->cost[AN_OP_COST_UNKNOWN],
						r->cost_what, r->ncost_what};
	if ((o->has_hlo = r->opts.hlo)) {
		struct an_ops_hlo_counts c;

		an_ops_hlo_count(r, &c);
		o->hlo = (struct xps_ops_hlo){c.ops, c.found, c.found_without_op_name, c.not_in_hlo, c.without_hlo,
					      r->hlo_modules, r->hlo_failed, r->hlo_inputs_without, c.tf};
	}
	return 0;
}

/* A trace's own result with no device plane (the command warns of it among several). */
static int no_device(const void *one)
{
	return !((const struct an_ops_result *)one)->ndevices;
}

int xps_ops_compute(xps_trace *const *traces, size_t ntraces, const struct xps_ops_opts *opts,
		    struct xps_ops **out, char *errbuf, size_t errlen)
{
	struct an_ops_opts po = {0};
	struct xp_err err = {0};
	struct ops_holder *h = NULL;
	int ret;

	if (out)
		*out = NULL;
	if ((ret = api_check_traces("xps_ops_compute", traces, ntraces, out != NULL, &err)))
		goto out;
	if (opts && (opts->sort < XPS_OPS_SORT_TIME || opts->sort > XPS_OPS_SORT_BYTES)) {
		ret = xp_err_set(&err, XP_ERR_USAGE, "xps_ops_compute: sort %d is not an XPS_OPS_SORT_*", opts->sort);
		goto out;
	}
	po.device = opts ? opts->device : NULL;
	po.by_category = opts && opts->by_category;
	po.by_scope = opts && opts->by_scope;
	po.by_source = opts && opts->by_source;
	po.by_framework = opts && opts->by_framework;
	po.hlo = po.by_scope || po.by_source || po.by_framework;
	po.sort = opts ? (enum an_ops_sort)opts->sort : AN_OPS_SORT_TIME;
	if ((ret = API_CALLOC(h, 1, &err)))
		goto out;
	an_ops_init(&h->res, &po);
	if ((ret = api_add_traces(traces, ntraces, &an_ops_analysis, &h->res, &po, no_device, po.device, &h->notes,
				  &err)) ||
	    (ret = an_ops_finish(&h->res, &err)) || (ret = fill(h, &err)) ||
	    (ret = api_warnings(&an_ops_analysis, &h->res, ntraces > 1, &h->notes, &h->pub.warnings,
				&h->pub.nwarnings, &err)))
		goto out;
	*out = &h->pub;
	h = NULL;
out:
	xps_ops_free(h ? &h->pub : NULL);
	return ret ? api_fail(&err, errbuf, errlen) : 0;
}

void xps_ops_free(struct xps_ops *o)
{
	struct ops_holder *h = (struct ops_holder *)o;

	if (!h)
		return;
	an_ops_release(&h->res);
	xp_notes_release(&h->notes);
	free(h->rows);
	free(h->cats);
	free(h->sources);
	free(h->fws);
	free(h->fwtypes);
	free(h->scopes);
	free(h->devices);
	free(h);
}
