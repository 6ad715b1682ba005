/* SPDX-License-Identifier: Apache-2.0 */
/* The public API's functions analysis (include/xplane_stat.h) over an_exec and an_functions. */
#include "api.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "an_functions.h"
#include "an_notes.h"

/* The caller's struct xps_functions is the first member: its pointer is the holder's. */
struct fn_holder {
	struct xps_functions pub;
	struct xps_function *rows;
	struct an_fn_result res;	/* the rows' strings */
	struct xp_notes notes;		/* the warnings */
};

static void fill(struct fn_holder *h)
{
	const struct an_fn_result *r = &h->res;
	struct xps_functions *f = &h->pub;
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		const struct an_fn_row *row = &r->rows[i];
		struct xps_function *o = &h->rows[i];

		o->name = row->name;
		o->program_id = row->has_program_id ? row->program_id : 0;
		o->has_program_id = row->has_program_id;
		o->fingerprint = row->fingerprint;
		o->device = row->device;
		o->devices = row->ndevices;
		o->executions = row->s.n;
		o->executions_used = row->s.n_used;
		o->events = row->events;
		o->total_ns = api_ns(row->s.total);
		o->mean_ns = row->s.mean / 1000.0;
		o->std_ns = row->s.std / 1000.0;
		o->min_ns = api_ns(row->s.min);
		o->median_ns = row->s.median / 1000.0;
		o->max_ns = api_ns(row->s.max);
		o->share = row->share;
	}
	f->rows = h->rows;
	f->nrows = r->nrows;
	f->time = r->opts.time == AN_TIME_SPAN ? XPS_TIME_SPAN
		  : r->opts.time == AN_TIME_CHILDREN ? XPS_TIME_CHILDREN : XPS_TIME_BUSY;
	f->trim = r->opts.trim;
	f->inputs = r->inputs;
	f->devices = r->devices;
	f->executions = r->executions;
	f->functions_count = r->functions;
	f->device_busy_ns = api_ns((double)r->device_busy_ps);
	f->device_events = r->device_events;
	f->dropped_short_events = r->dropped_short;
	f->unattributed_events = r->unattributed_events;
	f->unattributed_busy_ns = api_ns((double)r->unattributed_busy_ps);
	f->runs_rule_executions = r->runs_execs;
	f->runs_rule_split = r->runs_split;
	f->runs_rule_repeating = r->runs_repeating;
	f->stray_end_events = r->stray_events;
	f->stray_end_children = r->stray_children;
}

/* The options as an_exec and an_functions take them; 0 or XP_ERR_USAGE. */
static int check_opts(const struct xps_functions_opts *o, struct xp_err *err)
{
	int ret = api_time_opts("xps_functions_compute", o->time, o->children, o->min_duration_ps, err);

	if (ret)
		return ret;
	if (o->trim > SIZE_MAX)
		return xp_err_set(err, XP_ERR_USAGE, "xps_functions_compute: trim is too large");
	return 0;
}

int xps_functions_compute(xps_trace *const *traces, size_t ntraces, const struct xps_functions_opts *opts,
			  struct xps_functions **out, char *errbuf, size_t errlen)
{
	struct xps_functions_opts o = {0};
	struct an_exec_opts xo = {0};
	struct an_fn_opts fo = {0};
	struct xp_err err = {0};
	struct fn_holder *h = NULL;
	struct api_re match = {0}, child = {0};
	int ret;
	size_t i;

	if (out)
		*out = NULL;
	if ((ret = api_check_traces("xps_functions_compute", traces, ntraces, out != NULL, &err)))
		goto out;
	if (opts)
		o = *opts;
	if ((ret = check_opts(&o, &err)))
		goto out;
	if ((ret = api_re_compile(&match, o.match, "match", &err)) ||
	    (ret = api_re_compile(&child, o.children, "children", &err)))
		goto out;
	xo.device = o.device;
	xo.children = api_re_get(&child);
	xo.min_dur_ps = o.min_duration_ps;
	fo.match = api_re_get(&match);
	fo.trim = (size_t)o.trim;
	fo.per_device = o.per_device != 0;
	fo.time = child.set ? AN_TIME_CHILDREN : o.time == XPS_TIME_SPAN ? AN_TIME_SPAN : AN_TIME_BUSY;
	if ((ret = API_CALLOC(h, 1, &err)))
		goto out;
	an_fn_init(&h->res, &fo);
	/* As the command: each input's executions found and added in turn, in input order. */
	for (i = 0; i < ntraces; i++) {
		struct an_exec_list l;

		if ((ret = api_execs(traces[i], &xo, &l, &h->notes, &err)))
			goto out;
		/* as the command: among several traces, one without a device plane is a warning */
		if (ntraces > 1 && !l.ndevices && api_no_device_note(&h->notes, traces[i]->path, xo.device)) {
			an_exec_list_release(&l);
			ret = xp_err_set(&err, XP_ERR_NOMEM, "out of memory");
			goto out;
		}
		ret = an_fn_add(&h->res, &l, &err);
		an_exec_list_release(&l);
		if (ret)
			goto out;
	}
	if ((ret = an_fn_finish(&h->res, &err)))
		goto out;
	if (an_fn_notes(&h->res, &h->notes)) {
		ret = xp_err_set(&err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	h->pub.warnings = (const char *const *)h->notes.msgs;
	h->pub.nwarnings = h->notes.n;
	h->res.opts.match = NULL;	/* freed below; the rows are final */
	if ((ret = API_CALLOC(h->rows, h->res.nrows + 1, &err)))
		goto out;
	fill(h);
	*out = &h->pub;
	h = NULL;
out:
	xps_functions_free(h ? &h->pub : NULL);
	api_re_free(&match);
	api_re_free(&child);
	return ret ? api_fail(&err, errbuf, errlen) : 0;
}

void xps_functions_free(struct xps_functions *f)
{
	struct fn_holder *h = (struct fn_holder *)f;

	if (!h)
		return;
	an_fn_release(&h->res);
	xp_notes_release(&h->notes);
	free(h->rows);
	free(h);
}
