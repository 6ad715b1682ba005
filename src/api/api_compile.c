/* SPDX-License-Identifier: Apache-2.0 */
/* The public API's compile analysis (include/xplane_stat.h) over an_compile. */
#include "api.h"

#include <stdlib.h>
#include <string.h>

#include "an_compile.h"
#include "an_analysis.h"

/* The caller's struct xps_compile is the first member: its pointer is the holder's. */
struct comp_holder {
	struct xps_compile pub;
	struct xps_compile_function *fns;
	struct xps_compile_event *events;	/* the result's events in its order: each function's, then the rest */
	struct xps_compile_event *unattributed;
	struct an_comp_result res;	/* the strings */
	struct xp_notes notes;		/* the warnings */
};

static void fill_event(struct xps_compile_event *o, const struct an_comp_event *e)
{
	o->input = e->input;
	o->name = e->name;
	o->phase = an_comp_phase_name(e->phase);
	o->call = e->fn ? e->call + 1 : 0;
	o->where = !e->fn ? "unattributed" : e->inside ? "inside" : "beside";
	o->start_ns = api_ns((double)e->start_ps);
	o->duration_ns = api_ns((double)e->dur_ps);
	o->nested_in_same_phase = e->nested;
	o->inner_events = e->inner;
	o->inner_ns = api_ns((double)e->inner_ps);
}

static int fill(struct comp_holder *h, struct xp_err *err)
{
	const struct an_comp_result *r = &h->res;
	struct xps_compile *c = &h->pub;
	size_t i, n = 0;

	if (API_CALLOC(h->fns, r->nfns + 1, err) || API_CALLOC(h->events, r->nevents + 1, err) ||
	    API_CALLOC(h->unattributed, r->nevents + 1, err))
		return XP_ERR_NOMEM;
	for (i = 0; i < r->nevents; i++) {
		fill_event(&h->events[i], &r->events[i]);
		if (!r->events[i].fn)
			h->unattributed[n++] = h->events[i];
	}
	for (i = 0; i < r->nfns; i++) {
		const struct an_comp_fn *fn = &r->fns[i];
		struct xps_compile_function *o = &h->fns[i];

		o->input = fn->input;
		o->name = fn->name;
		o->program_id = fn->program_id;
		o->has_program_id = fn->has_program;
		o->calls = fn->calls;
		o->first_call_ns = api_ns((double)fn->first_ps);
		o->first_call_start_ns = api_ns((double)fn->first_start_ps);
		o->has_later = fn->has_later;
		o->later_median_ns = fn->has_later ? api_ns(fn->later_median_ps) : 0;
		o->overhead_ns = fn->has_later ? api_ns((double)fn->first_ps - fn->later_median_ps) : 0;
		o->trace_ns = api_ns((double)fn->phase_ps[AN_COMP_TRACE]);
		o->lower_ns = api_ns((double)fn->phase_ps[AN_COMP_LOWER]);
		o->compile_ns = api_ns((double)fn->phase_ps[AN_COMP_COMPILE]);
		o->compiling_calls = fn->compiling_calls;
		o->events = &h->events[fn->first_event];
		o->nevents = fn->nevents;
	}
	c->functions = h->fns;
	c->nfunctions = r->nfns;
	c->unattributed = h->unattributed;
	c->nunattributed = n;
	c->call_events = r->call_events;
	c->calls = r->calls;
	c->calls_with_program = r->calls_program;
	c->calls_ambiguous = r->calls_ambiguous;
	c->calls_unsearched = r->calls_unsearched;
	c->compiler_events = r->compiler_events;
	c->unattributed_events = r->unattributed;
	c->trace_ns = api_ns((double)r->phase_ps[AN_COMP_TRACE]);
	c->lower_ns = api_ns((double)r->phase_ps[AN_COMP_LOWER]);
	c->compile_ns = api_ns((double)r->phase_ps[AN_COMP_COMPILE]);
	c->compiler_ns = api_ns((double)r->total_ps);
	c->host_span_ns = api_ns((double)r->host_span_ps);
	c->unattributed_ns = api_ns((double)r->unattributed_ps);
	c->unselected = r->unselected;
	return 0;
}

int xps_compile_compute(xps_trace *const *traces, size_t ntraces, const struct xps_compile_opts *opts,
			struct xps_compile **out, char *errbuf, size_t errlen)
{
	struct an_comp_opts co = {0};
	struct xp_err err = {0};
	struct comp_holder *h = NULL;
	int ret;

	if (out)
		*out = NULL;
	if ((ret = api_check_traces("xps_compile_compute", traces, ntraces, out != NULL, &err)))
		goto out;
	co.function = opts ? opts->function : NULL;
	if ((ret = API_CALLOC(h, 1, &err)))
		goto out;
	an_comp_init(&h->res, &co);
	if ((ret = api_add_traces(traces, ntraces, &an_compile_analysis, &h->res, &co, NULL, NULL, &h->notes, &err)) ||
	    (ret = fill(h, &err)) ||
	    (ret = api_warnings(&an_compile_analysis, &h->res, ntraces > 1, &h->notes, &h->pub.warnings,
				&h->pub.nwarnings, &err)))
		goto out;
	*out = &h->pub;
	h = NULL;
out:
	xps_compile_free(h ? &h->pub : NULL);
	return ret ? api_fail(&err, errbuf, errlen) : 0;
}

void xps_compile_free(struct xps_compile *c)
{
	struct comp_holder *h = (struct comp_holder *)c;

	if (!h)
		return;
	an_comp_release(&h->res);
	xp_notes_release(&h->notes);
	free(h->fns);
	free(h->events);
	free(h->unattributed);
	free(h);
}
