/* SPDX-License-Identifier: Apache-2.0 */
#include "an_diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_autotune.h"
#include "an_sketch.h"
#include "an_stats.h"

const char *an_verdict_name(enum an_verdict v)
{
	static const char *const names[] = {"same", "faster", "slower", "new", "gone", "too few samples"};

	return names[v];
}

void an_diff_init(struct an_diff_result *r, const struct an_diff_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->opts = *o;
}

static struct an_diff_row *row_for(struct an_diff_result *r, const char *key)
{
	int is_new;
	struct an_diff_row *row = xp_hmap_row(&r->by_key_, key, &r->rows, &r->nrows, &r->cap, sizeof(*r->rows),
					      32, &is_new);

	if (!row || !is_new)
		return row;
	row->key = strdup(key);
	return row->key ? row : NULL;
}

static int side_push(struct an_diff_side *s, size_t run, double v, double w)
{
	size_t i;

	if (xp_grow(&s->v_, &s->cap_, s->nv_, sizeof(*s->v_), 8) ||
	    xp_grow(&s->run_, &s->run_cap_, s->nv_, sizeof(*s->run_), 8))
		return -1;
	if (w != 1 && !s->w_) {	/* weights only once a value has one */
		if (!(s->w_ = malloc(s->cap_ * sizeof(*s->w_))))
			return -1;
		s->w_cap_ = s->cap_;
		for (i = 0; i < s->nv_; i++)
			s->w_[i] = 1;
	}
	if (s->w_ && xp_grow(&s->w_, &s->w_cap_, s->nv_, sizeof(*s->w_), 8))
		return -1;
	s->v_[s->nv_] = v;
	if (s->w_)
		s->w_[s->nv_] = w;
	s->run_[s->nv_++] = run;
	return 0;
}

static int add_functions(struct an_diff_result *r, int side, size_t run, const struct an_exec_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct an_exec *x = &l->execs[i];
		struct an_diff_row *row;
		char *key = NULL;
		int n;

		if (r->opts.match && regexec(r->opts.match, x->name, 0, NULL, 0))
			continue;
		if (x->has_program_id)
			n = asprintf(&key, "%s(%" PRIu64 ")", x->name, x->program_id);
		else
			n = asprintf(&key, "%s", x->name);
		if (n < 0)
			return -1;
		row = row_for(r, key);
		free(key);
		if (!row)
			return -1;
		if (!row->name) {
			if (!(row->name = strdup(x->name)))
				return -1;
			row->program_id = x->program_id;
			row->has_program_id = x->has_program_id;
		}
		if (side_push(side ? &row->cur : &row->base, run, (double)an_exec_time(x, r->opts.time), 1))
			return -1;
	}
	return 0;
}

/* Candidates as autotune finds them (programs pooled per id), one run at a time. */
static int add_autotune(struct an_diff_result *r, int side, size_t run, const struct an_exec_list *l,
			struct xp_err *err)
{
	struct an_at_opts ao = {.id_re = r->opts.id_re, .programs = AN_AT_POOL_PROGRAMS,
				.time = r->opts.time, .alpha = r->opts.alpha};
	struct an_at_result at;
	size_t i, j, n;
	int ret;

	an_at_init(&at, &ao);
	ret = an_at_add(&at, l, err);
	for (i = 0; !ret && i < at.ncands; i++) {
		const double *v = an_at_samples(&at.cands[i], &n);
		struct an_diff_row *row = row_for(r, at.cands[i].id);

		for (j = 0; row && j < n; j++)
			if (side_push(side ? &row->cur : &row->base, run, v[j], 1))
				row = NULL;
		if (!row)
			ret = -1;
	}
	an_at_release(&at);
	return ret;
}

int an_diff_add(struct an_diff_result *r, int side, const struct an_exec_list *l, struct xp_err *err)
{
	size_t run = r->runs[side]++;
	int ret;

	if (r->opts.level == AN_DIFF_AUTOTUNE)
		ret = add_autotune(r, side, run, l, err);
	else
		ret = add_functions(r, side, run, l);
	if (ret && ret != -1)
		return ret;
	return ret ? xp_err_set(err, XP_ERR_NOMEM, "out of memory") : 0;
}

void an_diff_begin_run(struct an_diff_result *r, int side)
{
	r->runs[side]++;
}

int an_diff_add_value(struct an_diff_result *r, int side, const char *key, double ps, size_t weight)
{
	struct an_diff_row *row = row_for(r, key);
	size_t k;

	if (!row)
		return XP_ERR_NOMEM;
	for (k = 0; k < weight; k++)
		if (side_push(side ? &row->cur : &row->base, r->runs[side] - 1, ps, 1))
			return XP_ERR_NOMEM;
	return 0;
}

int an_diff_add_mean(struct an_diff_result *r, int side, const char *key, double ps, double count)
{
	struct an_diff_row *row = row_for(r, key);

	if (!row || side_push(side ? &row->cur : &row->base, r->runs[side] - 1, ps, count > 0 ? count : 1))
		return XP_ERR_NOMEM;
	r->means_ = 1;
	return 0;
}

void an_diff_group(struct an_diff_result *r, int side, size_t first, const size_t *run, size_t n, size_t nruns)
{
	size_t i, j;

	for (i = 0; i < r->nrows; i++) {
		struct an_diff_side *s = side ? &r->rows[i].cur : &r->rows[i].base;

		for (j = 0; j < s->nv_; j++)
			if (s->run_[j] >= first && s->run_[j] - first < n)
				s->run_[j] = first + run[s->run_[j] - first];
	}
	if (r->runs[side] >= first + n)
		r->runs[side] -= n - nruns;
}

int an_diff_approximate(struct an_diff_result *r, const char *key)
{
	struct an_diff_row *row = row_for(r, key);

	if (!row)
		return XP_ERR_NOMEM;
	row->approximate = 1;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The side's samples: its values (executions) or per-run means (weighted where values are means); then the statistics. */
static int side_finish(struct an_diff_side *s, int executions)
{
	size_t i, k, n = 0;
	double sum = 0, ss = 0;

	if (!executions && s->nv_) {
		/* values by run: runs grouped after they were added (an_diff_group) lie apart */
		if (an_run_means(s->v_, s->w_, s->run_, s->nv_, &n))
			return -1;
		s->runs = n;
	} else {
		n = s->nv_;
		s->runs = n ? 1 : 0;
	}
	s->n = n;
	if (!n)
		return 0;
	qsort(s->v_, n, sizeof(*s->v_), cmp_double);
	for (i = 0; i < n; i++)
		sum += s->v_[i];
	s->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (s->v_[i] - s->mean) * (s->v_[i] - s->mean);
	s->std = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	s->min = s->v_[0];
	s->max = s->v_[n - 1];
	s->median = n % 2 ? s->v_[n / 2] : (s->v_[n / 2 - 1] + s->v_[n / 2]) / 2;
	k = (size_t)ceil(0.95 * (double)n);
	s->p95 = s->v_[(k ? k : 1) - 1];
	return 0;
}

/* log of the number of ways to choose k of n. */
static double log_choose(size_t n, size_t k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/*
 * Exact two-sided p of U = u for samples of n and m without ties: the
 * count of arrangements with each U by the recurrence
 * N(n, m, u) = N(n - 1, m, u - m) + N(n, m - 1, u), as frequencies.
 */
static double mwu_exact(double u, size_t n, size_t m)
{
	size_t umax = n * m, i, j, k;
	/* f[j][k]: frequency of U = k for i of the first and j of the second sample */
	double *f = calloc((m + 1) * (umax + 1), sizeof(*f)), *g = calloc((m + 1) * (umax + 1), sizeof(*g));
	double lo = 0, hi = 0, total = 0, p;

	if (!f || !g) {
		free(f);
		free(g);
		return NAN;
	}
	for (j = 0; j <= m; j++)
		f[j * (umax + 1)] = 1;	/* i = 0: U = 0 */
	for (i = 1; i <= n; i++) {
		memset(g, 0, (m + 1) * (umax + 1) * sizeof(*g));
		g[0] = 1;	/* j = 0: U = 0 */
		for (j = 1; j <= m; j++)
			for (k = 0; k <= i * j; k++)
				g[j * (umax + 1) + k] = (k >= j ? f[j * (umax + 1) + k - j] : 0) +
							g[(j - 1) * (umax + 1) + k];
		double *t = f;

		f = g;
		g = t;
	}
	for (k = 0; k <= umax; k++) {
		total += f[m * (umax + 1) + k];
		if ((double)k <= u)
			lo += f[m * (umax + 1) + k];
		if ((double)k >= u)
			hi += f[m * (umax + 1) + k];
	}
	free(f);
	free(g);
	p = 2 * (lo < hi ? lo : hi) / total;
	return p > 1 ? 1 : p;
}

double an_mwu_p(const double *a, size_t n, const double *b, size_t m, int *exact)
{
	size_t N = n + m, i, j, k;
	double *all = malloc((N ? N : 1) * sizeof(*all)), r1 = 0, u, mu, tie = 0, sd, z;
	int *from = malloc((N ? N : 1) * sizeof(*from)), ties = 0;

	*exact = 0;
	if (!all || !from || !n || !m) {
		free(all);
		free(from);
		return NAN;
	}
	/* ranks with ties given their mean rank; a and b are sorted */
	for (i = j = k = 0; k < N; k++) {
		if (j >= m || (i < n && a[i] <= b[j])) {
			all[k] = a[i++];
			from[k] = 0;
		} else {
			all[k] = b[j++];
			from[k] = 1;
		}
	}
	for (i = 0; i < N; i = j) {
		double rank;

		for (j = i + 1; j < N && all[j] == all[i]; j++)
			;
		rank = ((double)i + 1 + (double)j) / 2;
		if (j - i > 1) {
			double t = (double)(j - i);

			ties = 1;
			tie += t * t * t - t;
		}
		for (k = i; k < j; k++)
			if (!from[k])
				r1 += rank;
	}
	free(all);
	free(from);
	u = r1 - (double)n * ((double)n + 1) / 2;
	if (!ties && n <= AN_MWU_EXACT_MAX && m <= AN_MWU_EXACT_MAX) {
		double p = mwu_exact(u, n, m);

		if (!isnan(p)) {
			*exact = 1;
			return p;
		}
	}
	mu = (double)n * (double)m / 2;
	sd = sqrt((double)n * (double)m / 12 * (((double)N + 1) - tie / ((double)N * ((double)N - 1))));
	if (sd == 0)
		return 1;
	z = (fabs(u - mu) - 0.5) / sd;
	if (z < 0)
		z = 0;
	return fmin(1, erfc(z / sqrt(2)));
}

/*
 * A row some of whose samples are a sketch's bucket values: every sample
 * of both sides put on the same buckets, so that the same instances, exact
 * on one side and sketched on the other, compare as the same.
 */
static void quantize(struct an_diff_side *s)
{
	size_t i;

	for (i = 0; i < s->nv_; i++)
		if (s->v_[i] >= 0.5 && s->v_[i] < 9.2e18)
			s->v_[i] = an_sketch_value(an_sketch_index(llround(s->v_[i])));
}

static int row_finish(struct an_diff_result *r, struct an_diff_row *row)
{
	struct an_diff_side *b = &row->base, *c = &row->cur;

	if (row->approximate) {
		quantize(b);
		quantize(c);
	}

	if (side_finish(b, r->executions) || side_finish(c, r->executions))
		return -1;
	row->change = row->ci_lo = row->ci_hi = row->p_u = row->p_adj = row->p_welch = row->p95_change = NAN;
	if (!b->n) {
		row->verdict = AN_V_NEW;
		row->delta = c->mean;
		return 0;
	}
	if (!c->n) {
		row->verdict = AN_V_GONE;
		row->delta = -b->mean;
		return 0;
	}
	row->delta = c->mean - b->mean;
	if (b->mean > 0)
		row->change = c->mean / b->mean;
	if (b->p95 > 0)
		row->p95_change = c->p95 / b->p95;
	row->p_u = an_mwu_p(b->v_, b->n, c->v_, c->n, &row->exact);
	if (b->n >= 2 && c->n >= 2) {
		struct an_summary sb = {0}, sc = {0};
		double vb, vc, se, df, t;

		sb.n = sb.n_used = b->n;
		sb.mean = b->mean;
		sb.sample_std = b->std;
		sb.std = b->std * sqrt((double)(b->n - 1) / (double)b->n);
		sc.n = sc.n_used = c->n;
		sc.mean = c->mean;
		sc.sample_std = c->std;
		sc.std = c->std * sqrt((double)(c->n - 1) / (double)c->n);
		row->p_welch = an_welch_p(&sb, &sc);
		if (b->mean > 0 && c->mean > 0) {
			vb = b->std * b->std / ((double)b->n * b->mean * b->mean);
			vc = c->std * c->std / ((double)c->n * c->mean * c->mean);
			se = sqrt(vb + vc);
			if (se == 0) {
				row->ci_lo = row->ci_hi = row->change;
			} else {
				df = (vb + vc) * (vb + vc) /
				     (vb * vb / (double)(b->n - 1) + vc * vc / (double)(c->n - 1));
				t = an_t_quantile(0.975, df);
				row->ci_lo = row->change * exp(-t * se);
				row->ci_hi = row->change * exp(t * se);
			}
		}
	}
	/* complete separation's exact p: 2 / C(n1 + n2, n1); too few samples is decided in an_diff_finish */
	row->log_min_p = log(2) - log_choose(b->n + c->n, b->n);
	row->verdict = AN_V_SAME;	/* decided in an_diff_finish, once every p is known */
	return 0;
}

/*
 * Too few samples: even a complete separation could not give a p below
 * alpha, once multiplied as Holm's first step multiplies the smallest p (by
 * the number of rows with a test); such a row is left out of the correction.
 */
static void mark_few(struct an_diff_result *r)
{
	size_t i, m = 0;

	for (i = 0; i < r->nrows; i++)
		m += r->rows[i].verdict == AN_V_SAME && isfinite(r->rows[i].p_u);
	for (i = 0; i < r->nrows; i++) {
		struct an_diff_row *row = &r->rows[i];

		if (row->verdict == AN_V_SAME &&
		    row->log_min_p + log(r->opts.holm && m > 1 ? (double)m : 1.0) >= log(r->opts.alpha))
			row->verdict = AN_V_FEW;
	}
}

/* The verdict of a tested row from its corrected p and the size of the change. */
static void decide(const struct an_diff_result *r, struct an_diff_row *row)
{
	if (row->verdict == AN_V_NEW || row->verdict == AN_V_GONE || row->verdict == AN_V_FEW)
		return;
	if (!(row->p_adj < r->opts.alpha) || row->change == 1 ||
	    (isfinite(row->change) && fabs(row->change - 1) * 100 < r->opts.min_effect_pct))
		row->verdict = AN_V_SAME;
	else
		row->verdict = row->delta > 0 ? AN_V_SLOWER : AN_V_FASTER;
}

struct ranked {
	double p;
	size_t row;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

/* Holm's step-down over the tested rows: the k-th smallest p times (m - k + 1), never below the one before. */
static int holm(struct an_diff_result *r)
{
	struct ranked *ix = malloc((r->nrows + 1) * sizeof(*ix));
	size_t m = 0, k;
	double run = 0;

	if (!ix)
		return -1;
	for (k = 0; k < r->nrows; k++) {
		struct an_diff_row *row = &r->rows[k];

		row->p_adj = row->p_u;
		if (row->verdict != AN_V_NEW && row->verdict != AN_V_GONE && row->verdict != AN_V_FEW &&
		    isfinite(row->p_u)) {
			ix[m].p = row->p_u;
			ix[m++].row = k;
		}
	}
	r->tested = m;
	if (r->opts.holm && m > 1) {
		qsort(ix, m, sizeof(*ix), cmp_ranked);
		for (k = 0; k < m; k++) {
			double v = ix[k].p * (double)(m - k);

			run = v > run ? v : run;
			r->rows[ix[k].row].p_adj = run > 1 ? 1 : run;
		}
	}
	free(ix);
	return 0;
}

static int cmp_row(const void *x, const void *y)
{
	const struct an_diff_row *a = x, *b = y;
	double da = fabs(a->delta), db = fabs(b->delta);

	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->key, b->key);
}

int an_diff_finish(struct an_diff_result *r, struct xp_err *err)
{
	size_t i;

	r->executions = r->runs[0] == 1 && r->runs[1] == 1 && !r->means_;
	for (i = 0; i < r->nrows; i++)
		if (row_finish(r, &r->rows[i]))
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	mark_few(r);
	if (holm(r))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (i = 0; i < r->nrows; i++) {
		decide(r, &r->rows[i]);
		r->verdicts[r->rows[i].verdict]++;
	}
	if (r->nrows > 1)
		qsort(r->rows, r->nrows, sizeof(*r->rows), cmp_row);
	xp_hmap_release(&r->by_key_);
	return 0;
}

size_t an_diff_gate(struct an_diff_result *r, double pct, double p95_pct)
{
	size_t i, n = 0;

	for (i = 0; i < r->nrows; i++) {
		struct an_diff_row *row = &r->rows[i];
		int significant = row->p_adj < r->opts.alpha && row->verdict != AN_V_FEW;

		row->gated = 0;
		if (pct >= 0 && row->verdict == AN_V_SLOWER && (row->change - 1) * 100 > pct)
			row->gated |= 1;
		/* a tail that grew while the mean got significantly faster is no regression to gate */
		if (p95_pct >= 0 && significant && row->delta > 0 && (row->p95_change - 1) * 100 > p95_pct)
			row->gated |= 2;
		n += row->gated != 0;
	}
	return n;
}

/* The samples a side's statistics came from (after finish), sorted. */
const double *an_diff_samples(const struct an_diff_side *s, size_t *n)
{
	*n = s->n;
	return s->v_;
}

void an_diff_release(struct an_diff_result *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		free(r->rows[i].key);
		free(r->rows[i].name);
		free(r->rows[i].base.v_);
		free(r->rows[i].base.run_);
		free(r->rows[i].base.w_);
		free(r->rows[i].cur.v_);
		free(r->rows[i].cur.run_);
		free(r->rows[i].cur.w_);
	}
	free(r->rows);
	xp_hmap_release(&r->by_key_);
	memset(r, 0, sizeof(*r));
}
