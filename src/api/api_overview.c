/* SPDX-License-Identifier: Apache-2.0 */
/* The public API's overview analysis (include/xplane_stat.h) over an_overview. */
#include "api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_input.h"
#include "an_notes.h"
#include "an_overview.h"

/* The caller's struct xps_overview is the first member: its pointer is the holder's. */
struct ov_holder {
	struct xps_overview pub;
	struct xps_overview_device *devices;
	struct an_ov_result res;	/* the names */
	struct xp_notes notes;		/* the warnings */
	struct xps_stragglers strag;
	struct xps_straggler_device *strag_devices;
	struct xps_straggler_host *strag_hosts;
	struct xps_overview_step *steps;
	struct xps_overview_aligned_step *aligned;
};

static void fill_step(struct xps_overview_step *x, const struct an_ov_step *s)
{
	double fs = an_ov_step_flops_per_s(s);

	x->device = s->device;
	x->input = s->input;
	x->name = s->name;
	x->index = s->index;
	x->start_ns = api_ns((double)s->start_ps);
	x->duration_ns = api_ns((double)s->dur_ps);
	x->busy_ns = api_ns((double)s->busy_ps);
	x->compute_ns = api_ns((double)s->compute_ps);
	x->collective_exposed_ns = api_ns((double)s->coll_exposed_ps);
	x->memcpy_exposed_ns = api_ns((double)s->memcpy_exposed_ps);
	x->host_wait_ns = api_ns((double)s->host_wait_ps);
	x->idle_ns = api_ns((double)an_ov_step_idle(s));
	x->has_flops = fs >= 0;
	x->flops = x->has_flops ? s->flops : 0;
	x->flops_per_s = api_known(fs);
	x->flops_utilization = api_known(an_ov_step_util(s));
	x->flops_of = s->tpu && s->leaf_ps > 0 ? (double)s->flops_ps / (double)s->leaf_ps : NAN;
}

static double per_group(double sum_ps, size_t groups)
{
	return groups ? api_ns(sum_ps / (double)groups) : NAN;
}

/* The stragglers' devices and hosts (an_straggle.h), into h->strag. */
static int fill_strag(struct ov_holder *h, struct xp_err *err)
{
	const struct an_strag_result *s = &h->res.strag;
	const struct an_strag_host *slowest = an_strag_slowest_host(s);
	size_t i;

	if (API_CALLOC(h->strag_devices, s->n + 1, err) || API_CALLOC(h->strag_hosts, s->nhost_rows + 1, err))
		return XP_ERR_NOMEM;
	for (i = 0; i < s->n; i++) {
		const struct an_strag_device *d = &s->devices[i];

		h->strag_devices[i] = (struct xps_straggler_device){
			d->name, d->host, d->plane, d->groups, d->last, per_group(d->late_ps, d->groups),
			per_group(d->waited_ps, d->groups), per_group(d->slow_ps, d->groups),
		};
	}
	for (i = 0; i < s->nhost_rows; i++) {
		const struct an_strag_host *x = &s->host_rows[i];

		h->strag_hosts[i] = (struct xps_straggler_host){x->name, x->groups, x->slowest,
								 per_group(x->slow_ps, x->groups)};
	}
	h->strag = (struct xps_stragglers){
		s->groups, s->unmatched, h->strag_devices, s->n, s->host_groups, s->host_runs, s->host_unmatched,
		h->strag_hosts, s->nhost_rows, slowest ? slowest->name : NULL,
	};
	h->pub.stragglers = &h->strag;
	return 0;
}

static struct xps_dist dist(const struct an_ov_dist *d)
{
	struct xps_dist x = {0};

	if (!d->n)
		return x;
	x.count = d->n;
	x.mean_ns = api_ns(d->mean);
	x.median_ns = api_ns(d->median);
	x.p99_ns = api_ns(d->p99);
	x.min_ns = api_ns(d->min);
	x.max_ns = api_ns(d->max);
	return x;
}

static void fill_device(struct xps_overview_device *o, const struct an_ov_device *d)
{
	o->name = d->name;
	o->host = d->host;
	o->plane = d->plane;
	o->work = d->tpu ? "XLA Ops" : "streams";
	o->planes = d->planes;
	o->events = d->events;
	o->span_ns = api_ns((double)d->span_ps);
	o->busy_ns = api_ns((double)d->busy_ps);
	o->idle_ns = api_ns((double)an_ov_idle(d));
	o->duty_cycle = d->span_ps > 0 ? (double)d->busy_ps / (double)d->span_ps : 0;
	o->compute_ns = api_ns((double)d->compute_ps);
	o->collective_ns = api_ns((double)d->coll_ps);
	o->collective_exposed_ns = api_ns((double)d->coll_exposed_ps);
	o->memcpy_ns = api_ns((double)d->memcpy_ps);
	o->memcpy_exposed_ns = api_ns((double)d->memcpy_exposed_ps);
	o->collective_events = d->coll_events;
	o->memcpy_events = d->memcpy_events;
	o->stray_end_events = d->stray;
	o->steps = dist(&d->steps);
	o->has_flops = d->flops_ps && !d->flops_overflow;
	o->flops = o->has_flops ? d->flops : 0;
	o->has_model_flops = d->model_ps && !d->flops_overflow;
	o->model_flops = o->has_model_flops ? d->model_flops : 0;
	o->work_ns = api_ns((double)d->work_ps);
	o->flops_work_ns = api_ns((double)d->flops_ps);
	o->model_flops_work_ns = api_ns((double)d->model_ps);
	o->flops_per_s = api_known(an_ov_flops_per_s(d));
	o->peak_source = an_peak_src_name((enum an_peak_src)d->peak_src);
	o->peak_flops_per_s = d->peak_src ? api_known(d->peak_flops) : NAN;
	o->flops_utilization = api_known(an_ov_flops_util(d));
	o->model_flops_utilization = api_known(an_ov_model_util(d));
	o->kernel_ns = api_ns((double)d->kernel_ps);
	o->tensor_core_ns = api_ns((double)d->tensor_core_ps);
	o->has_launch_latency = !d->tpu && d->corr_events;
	if (!o->has_launch_latency)
		return;
	o->events_with_correlation_id = d->corr_events;
	o->no_launch = d->no_launch;
	o->ambiguous = d->ambiguous;
	o->off_scale = d->off_scale;
	o->queued = d->queued;
	o->latency = dist(&d->latency);
	o->queue_wait = dist(&d->queue);
	o->overhead = dist(&d->overhead);
}

int xps_overview_compute(xps_trace *const *traces, size_t ntraces, const struct xps_overview_opts *opts,
			 struct xps_overview **out, char *errbuf, size_t errlen)
{
	struct xp_err err = {0};
	struct an_ov_opts oo = {0};
	struct ov_holder *h = NULL;
	size_t i, k, added, nbefore, *before = NULL, host_only, host_inputs;
	int ret;

	if (out)
		*out = NULL;
	if ((ret = api_check_traces("xps_overview_compute", traces, ntraces, out != NULL, &err)))
		goto out;
	if (opts && (opts->run_by < XPS_RUN_BY_AUTO || opts->run_by > XPS_RUN_BY_FILE)) {
		ret = xp_err_set(&err, XP_ERR_USAGE, "xps_overview_compute: run_by %d is not an XPS_RUN_BY_*",
				 opts->run_by);
		goto out;
	}
	if ((ret = API_CALLOC(h, 1, &err)))
		goto out;
	oo.stragglers = opts && opts->stragglers;
	oo.run_by = opts ? opts->run_by : XPS_RUN_BY_AUTO;
	oo.steps = opts && opts->steps;
	an_ov_init_opts(&h->res, &oo);
	for (i = 0; i < ntraces && !ret; i++) {
		struct xp_trace *t = traces[i]->t;

		/* every plane: the host's give launches and steps */
		for (k = 0; k < t->nplanes && !ret; k++)
			ret = xp_trace_load_plane(t, k, &err);
		nbefore = h->res.n;
		host_only = h->res.host_only_steps.n;
		host_inputs = h->res.host_only_inputs;
		if (!ret && !(ret = an_ov_counts(&h->res, &before)))
			ret = an_ov_add_input(&h->res, t, traces[i]->path, opts ? opts->device : NULL, &added, &err);
		if (an_input_check(t, traces[i]->path, &err))
			ret = XP_ERR_IO;
		else if (ret && ret != XP_ERR_NOMEM)
			an_input_name_err(&err, traces[i]->path);
		/* as the command: the reader's warnings, the input's odd events, a trace with no device */
		if (!ret && (an_input_notes(&h->notes, traces[i]->path, t) ||
			     an_ov_input_notes(&h->notes, traces[i]->path, &h->res, before, nbefore) ||
			     (h->res.host_only_inputs > host_inputs &&
			      an_ov_host_only_note(&h->notes, traces[i]->path, opts ? opts->device : NULL,
						   h->res.host_only_steps.n - host_only)) ||
			     (!added && h->res.host_only_inputs == host_inputs && ntraces > 1 &&
			      api_no_device_note(&h->notes, traces[i]->path, opts ? opts->device : NULL))))
			ret = xp_err_set(&err, XP_ERR_NOMEM, "out of memory");
		free(before);
		before = NULL;
	}
	if (ret || (ret = an_ov_finish(&h->res, &err)) || (ret = API_CALLOC(h->devices, h->res.n + 1, &err)))
		goto out;
	for (i = 0; i < h->res.n; i++)
		fill_device(&h->devices[i], &h->res.devices[i]);
	h->pub.devices = h->devices;
	h->pub.ndevices = h->res.n;
	h->pub.host_steps = dist(&h->res.host_steps);
	h->pub.host_only_steps = dist(&h->res.host_only_steps);
	h->pub.host_only_traces = h->res.host_only_inputs;
	if (oo.stragglers && (ret = fill_strag(h, &err)))
		goto out;
	if ((ret = API_CALLOC(h->steps, h->res.nsteps + 1, &err)))
		goto out;
	for (i = 0; i < h->res.nsteps; i++)
		fill_step(&h->steps[i], &h->res.steps[i]);
	h->pub.steps = h->steps;
	h->pub.nsteps = h->res.nsteps;
	if ((ret = API_CALLOC(h->aligned, h->res.naligned + 1, &err)))
		goto out;
	for (i = 0; i < h->res.naligned; i++) {
		const struct an_ov_aligned *a = &h->res.aligned[i];

		h->aligned[i] = (struct xps_overview_aligned_step){a->input, a->name, a->devices, api_ns((double)a->max_ps),
								   api_ns((double)a->min_ps), a->slowest};
	}
	h->pub.aligned_steps = h->aligned;
	h->pub.naligned_steps = h->res.naligned;
	h->pub.steps_unaligned = h->res.steps_unaligned;
	h->pub.warnings = (const char *const *)h->notes.msgs;
	h->pub.nwarnings = h->notes.n;
	*out = &h->pub;
	h = NULL;
out:
	xps_overview_free(h ? &h->pub : NULL);
	return ret ? api_fail(&err, errbuf, errlen) : 0;
}

void xps_overview_free(struct xps_overview *o)
{
	struct ov_holder *h = (struct ov_holder *)o;

	if (!h)
		return;
	an_ov_release(&h->res);
	xp_notes_release(&h->notes);
	free(h->strag_devices);
	free(h->strag_hosts);
	free(h->devices);
	free(h->steps);
	free(h->aligned);
	free(h);
}
