/* SPDX-License-Identifier: Apache-2.0 */
/* The public API's autotune analysis (include/xplane_stat.h) over an_exec and an_autotune. */
#include "api.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "an_autotune.h"
#include "an_notes.h"
#include "an_compat.h"
#include "an_exec.h"
#include "an_group.h"
#include "an_input.h"

/* The caller's struct xps_autotune is the first member: its pointer is the holder's. */
struct at_holder {
	struct xps_autotune pub;
	struct xps_autotune_candidate *rows;
	uint64_t *ids;			/* every row's program ids, one block */
	struct an_at_result res;	/* the rows' strings */
	struct xp_notes notes;		/* the warnings */
};

static int fill(struct at_holder *h, struct xp_err *err)
{
	const struct an_at_result *r = &h->res;
	const struct an_at_cand *best, *rival;
	enum an_at_nowinner why;
	size_t i, j, nids = 0, k = 0;

	for (i = 0; i < r->ncands; i++)
		nids += r->cands[i].nprogs;
	if (API_CALLOC(h->rows, r->ncands + 1, err) || API_CALLOC(h->ids, nids + 1, err))
		return XP_ERR_NOMEM;
	for (i = 0; i < r->ncands; i++) {
		const struct an_at_cand *c = &r->cands[i];
		struct xps_autotune_candidate *o = &h->rows[i];

		o->id = c->id;
		o->program_ids = h->ids + k;
		for (j = 0; j < c->nprogs; j++) {
			if (c->progs[j].known)
				h->ids[k++] = c->progs[j].id;
			else
				o->has_unknown_program = 1;
		}
		o->nprogram_ids = (size_t)(h->ids + k - o->program_ids);
		o->id_rows = c->id_rows ? c->id_rows : 1;
		o->n = c->s.n;
		o->n_used = c->s.n_used;
		o->trimmed_each_end = c->s.trimmed;
		o->inputs = c->inputs;
		/* as the command's JSON: picoseconds / 1e12 */
		o->mean_s = c->s.mean / 1e12;
		o->std_s = c->s.std / 1e12;
		o->min_s = c->s.min / 1e12;
		o->median_s = c->s.median / 1e12;
		o->max_s = c->s.max / 1e12;
		o->ci95_low_s = c->s.ci_lo / 1e12;
		o->ci95_high_s = c->s.ci_hi / 1e12;
		o->rank = c->rank;
		o->tied_with_fastest = c->tied;
		o->p_vs_fastest = c->p_vs_fastest;
		o->log10_p_vs_fastest = c->log10_p_vs_fastest;
	}
	best = an_at_winner(r, &why, &rival);
	h->pub.rows = h->rows;
	h->pub.nrows = r->ncands;
	h->pub.fastest = best ? best->id : NULL;
	h->pub.no_fastest_because = an_at_nowinner_name(why);
	h->pub.rival = rival ? rival->id : NULL;
	h->pub.inputs = r->inputs;
	h->pub.inputs_without = r->inputs_without;
	h->pub.dropped_short_events = r->dropped_short;
	h->pub.samples_are_runs = r->samples_are_runs;
	h->pub.runs = r->runs;
	return 0;
}

static int check_opts(const struct xps_autotune_opts *o, struct xp_err *err)
{
	int ret = api_time_opts("xps_autotune_compute", o->time, o->children, o->min_duration_ps, err);

	if (ret)
		return ret;
	if (o->trim_given && o->trim > SIZE_MAX)
		return xp_err_set(err, XP_ERR_USAGE, "xps_autotune_compute: trim is too large");
	if (!(o->alpha >= 0 && o->alpha < 1))
		return xp_err_set(err, XP_ERR_USAGE, "xps_autotune_compute: alpha %g is not in [0, 1)", o->alpha);
	if (o->run_by != XPS_RUN_BY_AUTO && o->run_by != XPS_RUN_BY_DIR && o->run_by != XPS_RUN_BY_FILE)
		return xp_err_set(err, XP_ERR_USAGE, "xps_autotune_compute: run_by %d is not an XPS_RUN_BY_*", o->run_by);
	if (o->compat && (o->time || o->children || o->min_duration_ps || o->trim_given || o->id_regex ||
			  o->all_devices))
		return xp_err_set(err, XP_ERR_USAGE, "xps_autotune_compute: compat fixes time, children, "
				  "min_duration_ps, trim, id_regex and all_devices: leave them zero");
	return 0;
}

/* One trace the way ejkernel's profiler read it (an_compat_add), its matching plane loaded first. */
static int compat_add(xps_trace *t, const struct an_compat_opts *co, struct an_at_result *r, size_t input,
		      struct xp_err *err)
{
	struct an_compat_file info;
	size_t i;
	int ret;

	for (i = 0; i < t->t->nplanes; i++)
		if (an_device_matches(t->t->planes[i].name, co->device) &&
		    (ret = xp_trace_load_plane(t->t, i, err)))
			return ret;
	r->inputs++;
	ret = an_compat_add(t->t, co, r, input, &info, err);
	if (ret && ret != XP_ERR_NOMEM)
		an_input_name_err(err, t->path);
	return ret;
}

/* Adds a run's executions (api_runs' add). */
static int at_add(void *r, const struct an_exec_list *l, struct xp_err *err)
{
	return an_at_add(r, l, err);
}

int xps_autotune_compute(xps_trace *const *traces, size_t ntraces, const struct xps_autotune_opts *opts,
			 struct xps_autotune **out, char *errbuf, size_t errlen)
{
	struct xps_autotune_opts o = {0};
	struct an_exec_opts xo = {0};
	struct an_at_opts ao = {0};
	struct xp_err err = {0};
	struct at_holder *h = NULL;
	struct api_re id = {0}, child = {0};
	size_t copies = 0, nadded = 0, i;
	int ret;

	if (out)
		*out = NULL;
	if ((ret = api_check_traces("xps_autotune_compute", traces, ntraces, out != NULL, &err)))
		goto out;
	if (opts)
		o = *opts;
	if ((ret = check_opts(&o, &err)))
		goto out;
	if ((ret = api_re_compile(&id, o.id_regex ? o.id_regex : AN_AT_DEFAULT_ID_REGEX, "id_regex", &err)))
		goto out;
	if (id.re.re_nsub < 1) {
		ret = xp_err_set(&err, XP_ERR_USAGE, "id_regex: '%.200s' has no group for the id", o.id_regex);
		goto out;
	}
	if ((ret = api_re_compile(&child, o.children, "children", &err)))
		goto out;
	xo.device = o.device;
	xo.children = api_re_get(&child);
	xo.min_dur_ps = o.min_duration_ps;
	ao.id_re = &id.re;
	ao.programs = o.pool_programs || o.compat ? AN_AT_POOL_PROGRAMS : AN_AT_SPLIT_PROGRAMS;
	ao.trim = o.trim_given ? (size_t)o.trim : 1;
	ao.all_devices = o.all_devices != 0;
	ao.time = child.set ? AN_TIME_CHILDREN : o.time == XPS_TIME_SPAN ? AN_TIME_SPAN : AN_TIME_BUSY;
	ao.alpha = o.alpha > 0 ? o.alpha : 0.05;
	ao.run_means = !o.samples_executions && !o.compat;
	ao.trim_runs_auto = !o.trim_given;
	if ((ret = API_CALLOC(h, 1, &err)))
		goto out;
	an_at_init(&h->res, &ao);
	for (i = 0; i < ntraces && o.compat; i++) {
		struct an_compat_opts co = {.device = o.device ? o.device : "gpu", .id_re = &id.re};

		if ((ret = compat_add(traces[i], &co, &h->res, i, &err)))
			goto out;
	}
	if (!o.compat) {
		struct an_groups g;

		if ((ret = api_runs(traces, ntraces, &xo, o.keep_duplicates, o.run_by, at_add, &h->res, &h->notes,
				    &copies, &g, &nadded, &err)))
			goto out;
		an_at_group(&h->res, g.run, nadded, g.nruns);
		an_groups_release(&g);
	}
	if ((ret = an_at_finish(&h->res, &err)))
		goto out;
	if ((ret = fill(h, &err)))
		goto out;
	if (an_at_notes(&h->res, o.compat != 0, h->res.opts.trim, &h->notes)) {
		ret = xp_err_set(&err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	h->pub.warnings = (const char *const *)h->notes.msgs;
	h->pub.nwarnings = h->notes.n;
	h->pub.copies = copies;
	h->res.opts.id_re = NULL;	/* freed below; the rows are final */
	*out = &h->pub;
	h = NULL;
out:
	xps_autotune_free(h ? &h->pub : NULL);
	api_re_free(&id);
	api_re_free(&child);
	return ret ? api_fail(&err, errbuf, errlen) : 0;
}

void xps_autotune_free(struct xps_autotune *a)
{
	struct at_holder *h = (struct at_holder *)a;

	if (!h)
		return;
	an_at_release(&h->res);
	xp_notes_release(&h->notes);
	free(h->rows);
	free(h->ids);
	free(h);
}
