/* SPDX-License-Identifier: Apache-2.0 */
#include "an_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_group.h"
#include "xp_arena.h"
#include "xp_hmap.h"

static int str_eq(const char *a, const char *b)
{
	return (a == NULL) == (b == NULL) && (!a || !strcmp(a, b));
}

/* Whether two runs were found with the same options (comparable executions). */
static int same_options(const struct an_run *a, const struct an_run *b)
{
	return a->min_dur_ps == b->min_dur_ps && str_eq(a->device, b->device) && str_eq(a->children, b->children);
}

/* A group is what one command with --history recorded: its commit, run number, time, host and options. */
static int same_group(const struct an_hist_group *g, const struct an_run *r)
{
	const struct an_run *f = g->first_;

	return g->run == r->hist.run && g->dirty == r->hist.dirty && g->time == r->hist.time &&
	       !strcmp(g->commit, r->hist.commit) && str_eq(f->hist.host, r->hist.host) && same_options(f, r);
}

/* Whether a group is of commit "abc" or "abc+" (dirty), by prefix of the recorded hash. */
static int commit_matches(const struct an_hist_group *g, const char *want)
{
	size_t n = strlen(want);
	int dirty = n && want[n - 1] == '+';

	n -= (size_t)dirty;
	return n && dirty == g->dirty && strlen(g->commit) >= n && !strncmp(g->commit, want, n);
}

static int same_commit(const struct an_hist_group *a, const struct an_hist_group *b)
{
	return a->dirty == b->dirty && !strcmp(a->commit, b->commit);
}

static int cmp_group(const void *x, const void *y)
{
	const struct an_hist_group *a = x, *b = y;
	int c;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	if ((c = strcmp(a->commit, b->commit)))
		return c;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	return (a->order_ > b->order_) - (a->order_ < b->order_);
}

/*
 * The group of each run (SIZE_MAX: no history), the groups in the order they
 * were recorded (time, then commit and run number, then the file's order):
 * a merged history file has its lines in another order.
 */
static int make_groups(const struct an_run *runs, size_t n, struct an_hist_result *r, size_t *gof)
{
	size_t i, k, cap = 0, *newidx;

	for (i = 0; i < n; i++) {
		const struct an_run *x = &runs[i];

		gof[i] = SIZE_MAX;
		if (!x->hist.present) {
			r->runs_without_history++;
			continue;
		}
		for (k = r->ngroups; k-- > 0;)
			if (same_group(&r->groups[k], x))
				break;
		if (k == SIZE_MAX) {
			if (xp_grow(&r->groups, &cap, r->ngroups, sizeof(*r->groups), 16))
				return XP_ERR_NOMEM;
			k = r->ngroups++;
			r->groups[k] = (struct an_hist_group){.commit = x->hist.commit, .dirty = x->hist.dirty,
							      .run = x->hist.run, .time = x->hist.time, .first_ = x,
							      .order_ = k};
		}
		r->groups[k].nprofiles++;
		gof[i] = k;
	}
	if (r->ngroups < 2)
		return 0;
	qsort(r->groups, r->ngroups, sizeof(*r->groups), cmp_group);
	if (!(newidx = malloc(r->ngroups * sizeof(*newidx))))
		return XP_ERR_NOMEM;
	for (k = 0; k < r->ngroups; k++)
		newidx[r->groups[k].order_] = k;
	for (i = 0; i < n; i++)
		if (gof[i] != SIZE_MAX)
			gof[i] = newidx[gof[i]];
	free(newidx);
	return 0;
}

/*
 * The runs the profiles of one group form (an_group_runs as by says: a
 * session's hosts are one run), from the paths and hostnames recorded:
 * each profile's run into run (count of them), their number returned;
 * 0 when out of memory.
 */
static size_t group_runs(const struct an_run *runs, size_t n, const size_t *gof, size_t g, enum an_run_by by,
			 size_t *run)
{
	struct an_group_in *in = calloc(n + 1, sizeof(*in));
	struct xp_arena a = {0};
	struct an_groups gr;
	size_t i, k = 0, nruns = 0;

	for (i = 0; in && i < n; i++) {
		const char *p = runs[i].path ? runs[i].path : "", *slash = strrchr(p, '/');

		if (gof[i] != g)
			continue;
		in[k].path = p;
		in[k].hostname = runs[i].nhostnames ? runs[i].hostnames[0] : NULL;
		if (!(in[k].dir = slash ? xp_arena_strndup(&a, p, (size_t)(slash - p)) : "."))
			goto out;
		k++;
	}
	if (in && !an_group_runs(in, k, by, &gr, NULL)) {
		memcpy(run, gr.run, k * sizeof(*run));
		nruns = gr.nruns;
		an_groups_release(&gr);
	}
out:
	xp_arena_release(&a);
	free(in);
	return nruns;
}

/* One group's rows as an_diff sees them, on one side: a sample per run of its profiles. */
static int group_diff(const struct an_run *runs, size_t n, const size_t *gof, size_t g, int side,
		      enum an_run_by by, struct an_diff_result *d, struct xp_err *err)
{
	size_t i, k = 0, first = d->runs[side], nruns, *run;
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		if (gof[i] == g && !(ret = an_diff_add(d, side, &runs[i].execs, err)))
			k++;
	if (ret || k < 2)
		return ret;
	if (!(run = malloc(k * sizeof(*run))) || !(nruns = group_runs(runs, n, gof, g, by, run))) {
		free(run);
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	an_diff_group(d, side, first, run, k, nruns);
	d->profiles[side] += k;
	free(run);
	return 0;
}

/* The first group (in time) of g's commit among those comparable with the latest. */
static size_t first_of_commit(const struct an_hist_result *r, size_t g)
{
	size_t k;

	for (k = 0; k < r->ngroups; k++)
		if (r->groups[k].comparable && same_commit(&r->groups[k], &r->groups[g]))
			return k;
	return g;
}

static int pick_baseline(struct an_hist_result *r, const char *want, struct xp_err *err)
{
	const struct an_hist_group *last = &r->groups[r->latest];
	size_t k, found = SIZE_MAX;

	if (want) {
		for (k = 0; k < r->ngroups; k++) {
			if (!r->groups[k].comparable || !commit_matches(&r->groups[k], want))
				continue;
			if (found != SIZE_MAX && !same_commit(&r->groups[found], &r->groups[k]))
				return xp_err_set(err, XP_ERR_USAGE,
						  "--baseline: '%s' names several commits ('%s%s' and '%s%s'): give more of it",
						  want, r->groups[found].commit, r->groups[found].dirty ? "+" : "",
						  r->groups[k].commit, r->groups[k].dirty ? "+" : "");
			if (found == SIZE_MAX)
				found = k;
		}
		if (found == SIZE_MAX)
			return xp_err_set(err, XP_ERR_USAGE,
					  "--baseline: no run of commit '%s' in the history with the latest run's options",
					  want);
		r->baseline = found;
		r->base_why = AN_HB_ASKED;
		return 0;
	}
	k = first_of_commit(r, r->latest);
	if (k != r->latest) {
		r->baseline = k;
		r->base_why = AN_HB_SAME_COMMIT;
		return 0;
	}
	/* the latest is its commit's first run: the first run of the commit recorded before it */
	for (k = r->latest; k-- > 0;)
		if (r->groups[k].comparable && !same_commit(&r->groups[k], last))
			break;
	if (k == SIZE_MAX) {
		r->base_why = AN_HB_NONE;
		return 0;
	}
	r->baseline = first_of_commit(r, k);
	r->base_why = AN_HB_PREVIOUS_COMMIT;
	return 0;
}

int an_hist_compute(const struct an_run *runs, size_t n, const struct an_diff_opts *o, enum an_run_by by,
		    const char *baseline, struct an_hist_result *r, struct xp_err *err)
{
	size_t *gof = malloc((n ? n : 1) * sizeof(*gof)), g, i, k;
	struct xp_hmap keys = {0};
	size_t rcap = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	an_diff_init(&r->diff, o);
	if (!gof)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if ((ret = make_groups(runs, n, r, gof)))
		goto nomem;
	if (!r->ngroups) {
		ret = xp_err_set(err, XP_ERR_USAGE, "no run in it was recorded with --history");
		goto out;
	}
	r->latest = r->ngroups - 1;	/* groups are in recorded order */
	for (i = 0; i < r->ngroups; i++) {
		r->groups[i].comparable = same_options(r->groups[i].first_, r->groups[r->latest].first_);
		r->other_options += !r->groups[i].comparable;
	}
	if ((ret = pick_baseline(r, baseline, err)))
		goto out;
	/* the trend: each group's rows on their own */
	for (g = 0; g < r->ngroups; g++) {
		struct an_diff_result d;

		an_diff_init(&d, o);
		ret = group_diff(runs, n, gof, g, 0, by, &d, err);
		r->groups[g].nruns = d.runs[0];
		if (!ret)
			ret = an_diff_finish(&d, err);
		for (k = 0; !ret && k < d.nrows; k++) {
			size_t idx = r->nrows, j;
			int found = xp_hmap_get_or_put(&keys, d.rows[k].key, &idx);

			if (found < 0 || (!found && xp_grow(&r->rows, &rcap, r->nrows, sizeof(*r->rows), 16))) {
				ret = XP_ERR_NOMEM;
				break;
			}
			if (!found) {
				struct an_hist_row *row = &r->rows[r->nrows++];

				row->key = strdup(d.rows[k].key);
				row->means = malloc(r->ngroups * sizeof(*row->means));
				if (!row->key || !row->means) {
					ret = XP_ERR_NOMEM;
					break;
				}
				for (j = 0; j < r->ngroups; j++)
					row->means[j] = NAN;
			}
			r->rows[idx].means[g] = d.rows[k].base.mean;
		}
		an_diff_release(&d);
		if (ret)
			goto nomem;
	}
	if (r->base_why != AN_HB_NONE) {
		ret = group_diff(runs, n, gof, r->baseline, 0, by, &r->diff, err);
		if (!ret)
			ret = group_diff(runs, n, gof, r->latest, 1, by, &r->diff, err);
		if (!ret)
			ret = an_diff_finish(&r->diff, err);
	}
	if (ret)
		goto nomem;
	goto out;
nomem:
	ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
out:
	xp_hmap_release(&keys);
	free(gof);
	if (ret)
		an_hist_release(r);
	return ret;
}

void an_hist_release(struct an_hist_result *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		free(r->rows[i].key);
		free(r->rows[i].means);
	}
	free(r->rows);
	free(r->groups);
	an_diff_release(&r->diff);
	memset(r, 0, sizeof(*r));
}
