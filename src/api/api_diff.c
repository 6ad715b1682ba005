/* SPDX-License-Identifier: Apache-2.0 */
/* The public API's diff (include/xplane_stat.h) over an_diff: two sets of runs, as `diff --json` compares them. */
#include "api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_autotune.h"
#include "an_diff.h"
#include "an_exec.h"
#include "an_group.h"

/* The caller's struct xps_diff is the first member: its pointer is the holder's. */
struct diff_holder {
	struct xps_diff pub;
	struct xps_diff_row *rows;
	struct an_diff_result res;	/* the keys and names */
	struct xp_notes notes;
	struct api_re match, id, child;
	int side;			/* being added */
};

static struct xps_diff_side side_of(const struct an_diff_side *s)
{
	struct xps_diff_side o = {s->n, s->runs, NAN, NAN, NAN, NAN, NAN, NAN};

	if (s->n) {
		o.mean_ns = api_ns(s->mean);
		o.median_ns = api_ns(s->median);
		o.min_ns = api_ns(s->min);
		o.max_ns = api_ns(s->max);
		o.p95_ns = api_ns(s->p95);
		o.std_ns = api_ns(s->std);
	}
	return o;
}

static double finite_or_nan(double v)
{
	return isfinite(v) ? v : NAN;
}

static int fill(struct diff_holder *h, struct xp_err *err)
{
	const struct an_diff_result *r = &h->res;
	struct xps_diff *d = &h->pub;
	size_t i;

	if (API_CALLOC(h->rows, r->nrows + 1, err))
		return XP_ERR_NOMEM;
	for (i = 0; i < r->nrows; i++) {
		const struct an_diff_row *w = &r->rows[i];
		struct xps_diff_row *o = &h->rows[i];

		o->key = w->key;
		o->name = w->name ? w->name : w->key;
		o->program_id = w->program_id;
		o->has_program_id = w->has_program_id;
		o->verdict = an_verdict_name(w->verdict);
		o->approximate = w->approximate;
		o->change = finite_or_nan(w->change);
		o->change_ci95_lo = isfinite(w->ci_lo) ? w->ci_lo : NAN;
		o->change_ci95_hi = isfinite(w->ci_lo) ? w->ci_hi : NAN;
		o->p_value = finite_or_nan(w->p_u);
		o->p_exact = isfinite(w->p_u) && w->exact;
		o->p_adjusted = finite_or_nan(w->p_adj);
		o->p_welch = finite_or_nan(w->p_welch);
		o->p95_change = finite_or_nan(w->p95_change);
		o->base = side_of(&w->base);
		o->current = side_of(&w->cur);
		o->delta_ns = round(w->delta) / 1000.0;
		o->gated = w->gated;
		d->gated += w->gated != 0;
	}
	d->level = r->opts.level == AN_DIFF_AUTOTUNE ? "autotune" : "functions";
	d->alpha = r->opts.alpha;
	d->min_effect_pct = r->opts.min_effect_pct;
	d->correction = r->opts.holm ? "holm" : "none";
	d->rows_tested = r->tested;
	for (i = 0; i < 2; i++) {
		d->runs[i] = r->runs[i];
		d->profiles[i] = r->profiles[i] ? r->profiles[i] : r->runs[i];
	}
	d->samples = r->executions ? "executions" : "run means";
	d->rows = h->rows;
	d->nrows = r->nrows;
	d->warnings = (const char *const *)h->notes.msgs;
	d->nwarnings = h->notes.n;
	return 0;
}

static int add_run(void *ctx, const struct an_exec_list *l, struct xp_err *err)
{
	struct diff_holder *h = ctx;

	return an_diff_add(&h->res, h->side, l, err);
}

/* The options as an_diff and an_exec take them; 0 or XP_ERR_USAGE. */
static int check_opts(const struct xps_diff_opts *o, struct xp_err *err)
{
	int ret = api_time_opts("xps_diff_compute", o->time, o->children, o->min_duration_ps, err);

	if (ret)
		return ret;
	if (o->level != XPS_DIFF_FUNCTIONS && o->level != XPS_DIFF_AUTOTUNE)
		return xp_err_set(err, XP_ERR_USAGE, "xps_diff_compute: level %d is not an xps_diff_level (the "
				  "kernels and ops levels are the command's)", o->level);
	/* as the command's --alpha, --min-effect, --gate and --gate-p95 take them; 0 alpha: the default */
	if (o->alpha != 0 && !(o->alpha >= 1e-12 && o->alpha <= 0.5))
		return xp_err_set(err, XP_ERR_USAGE, "xps_diff_compute: alpha %g is not in [1e-12, 0.5]", o->alpha);
	if (o->min_effect_given && !(o->min_effect_pct >= 0 && o->min_effect_pct <= 1e6))
		return xp_err_set(err, XP_ERR_USAGE, "xps_diff_compute: min_effect_pct %g is not in [0, 1e6]",
				  o->min_effect_pct);
	if ((o->gate && !(o->gate_pct >= 0 && o->gate_pct <= 1e9)) ||
	    (o->gate_p95 && !(o->gate_p95_pct >= 0 && o->gate_p95_pct <= 1e9)))
		return xp_err_set(err, XP_ERR_USAGE, "xps_diff_compute: a gate's percentage is not in [0, 1e9]");
	if (o->run_by != XPS_RUN_BY_AUTO && o->run_by != XPS_RUN_BY_DIR && o->run_by != XPS_RUN_BY_FILE)
		return xp_err_set(err, XP_ERR_USAGE, "xps_diff_compute: run_by %d is not an XPS_RUN_BY_*", o->run_by);
	return 0;
}

int xps_diff_compute(xps_trace *const *base, size_t nbase, xps_trace *const *current, size_t ncurrent,
		     const struct xps_diff_opts *opts, struct xps_diff **out, char *errbuf, size_t errlen)
{
	struct xps_diff_opts o = {0};
	struct an_diff_opts dopt = {0};
	struct an_exec_opts xo = {0};
	struct xp_err err = {0};
	struct diff_holder *h = NULL;
	size_t copies = 0;
	int ret, side;

	if (out)
		*out = NULL;
	if ((ret = api_check_traces("xps_diff_compute", base, nbase, out != NULL, &err)) ||
	    (ret = api_check_traces("xps_diff_compute", current, ncurrent, 1, &err)))
		goto out;
	if (opts)
		o = *opts;
	if ((ret = check_opts(&o, &err)) || (ret = API_CALLOC(h, 1, &err)))
		goto out;
	if ((ret = api_re_compile(&h->match, o.match, "match", &err)) ||
	    (ret = api_re_compile(&h->id, o.id_regex ? o.id_regex : AN_AT_DEFAULT_ID_REGEX, "id_regex", &err)) ||
	    (ret = api_re_compile(&h->child, o.children, "children", &err)))
		goto out;
	if (h->id.re.re_nsub < 1) {
		ret = xp_err_set(&err, XP_ERR_USAGE, "id_regex: '%.200s' has no group for the id", o.id_regex);
		goto out;
	}
	xo.device = o.device;
	xo.children = api_re_get(&h->child);
	xo.min_dur_ps = o.min_duration_ps;
	dopt.level = o.level == XPS_DIFF_AUTOTUNE ? AN_DIFF_AUTOTUNE : AN_DIFF_FUNCTIONS;
	dopt.time = h->child.set ? AN_TIME_CHILDREN : o.time == XPS_TIME_SPAN ? AN_TIME_SPAN : AN_TIME_BUSY;
	dopt.match = api_re_get(&h->match);
	dopt.id_re = &h->id.re;
	dopt.alpha = o.alpha > 0 ? o.alpha : 0.05;
	dopt.min_effect_pct = o.min_effect_given ? o.min_effect_pct : AN_DIFF_MIN_EFFECT_PCT;
	dopt.holm = !o.no_correction;
	an_diff_init(&h->res, &dopt);
	/* as the command: each side's runs, copies counted once, its hosts' traces grouped into runs */
	for (side = 0; side < 2; side++) {
		size_t first = h->res.runs[side], nadded = 0;
		struct an_groups g;

		h->side = side;
		if ((ret = api_runs(side ? current : base, side ? ncurrent : nbase, &xo, o.keep_duplicates, o.run_by,
				    add_run, h, &h->notes, &copies, &g, &nadded, &err)))
			goto out;
		an_diff_group(&h->res, side, first, g.run, nadded, g.nruns);
		h->res.profiles[side] += nadded;
		an_groups_release(&g);
	}
	if ((ret = an_diff_finish(&h->res, &err)))
		goto out;
	an_diff_gate(&h->res, o.gate ? o.gate_pct : -1, o.gate_p95 ? o.gate_p95_pct : -1);
	if ((ret = fill(h, &err)))
		goto out;
	h->pub.copies = copies;
	*out = &h->pub;
	h = NULL;
out:
	xps_diff_free(h ? &h->pub : NULL);
	return ret ? api_fail(&err, errbuf, errlen) : 0;
}

void xps_diff_free(struct xps_diff *d)
{
	struct diff_holder *h = (struct diff_holder *)d;

	if (!h)
		return;
	an_diff_release(&h->res);
	xp_notes_release(&h->notes);
	api_re_free(&h->match);
	api_re_free(&h->id);
	api_re_free(&h->child);
	free(h->rows);
	free(h);
}
