/* SPDX-License-Identifier: Apache-2.0 */
/*
 * an_diff: the Mann-Whitney U test against a brute-force enumeration and
 * hand computations, the ratio interval, verdicts and the gate.
 */
#include <stdlib.h>

#include "an_diff.h"
#include "test.h"

/*
 * Exact two-sided p by enumerating every way to split the pooled values
 * into samples of n and m (the independent path the DP must agree with).
 */
static double brute_p(const double *a, size_t n, const double *b, size_t m)
{
	double all[16];
	size_t N = n + m, i, j, lo = 0, hi = 0, total = 0;
	double u0 = 0, p;
	unsigned mask;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			u0 += a[i] > b[j];
	memcpy(all, a, n * sizeof(*a));
	memcpy(all + n, b, m * sizeof(*b));
	for (mask = 0; mask < 1u << N; mask++) {
		double u = 0;

		if ((size_t)__builtin_popcount(mask) != n)
			continue;
		for (i = 0; i < N; i++)
			for (j = 0; j < N; j++)
				if ((mask >> i & 1) && !(mask >> j & 1))
					u += all[i] > all[j];
		total++;
		lo += u <= u0;
		hi += u >= u0;
	}
	p = 2.0 * (double)(lo < hi ? lo : hi) / (double)total;
	return p > 1 ? 1 : p;
}

static void test_mwu_exact(void)
{
	double a[] = {1, 2, 3}, b[] = {4, 5, 6}, c[] = {1, 2, 3, 4}, d[] = {5, 6, 7, 8};
	int exact;

	/* complete separation: 2 / C(6, 3) = 0.1 and 2 / C(8, 4) = 2/70 */
	CHECK_NEAR(an_mwu_p(a, 3, b, 3, &exact), 0.1, 1e-15);
	CHECK_INT(exact, 1);
	CHECK_NEAR(an_mwu_p(c, 4, d, 4, &exact), 2.0 / 70, 1e-15);
	CHECK_NEAR(an_mwu_p(d, 4, c, 4, &exact), 2.0 / 70, 1e-15);
}

static void test_mwu_against_enumeration(void)
{
	uint64_t rng = 99;
	int round;

	for (round = 0; round < 60; round++) {
		double v[14], a[7], b[7];
		size_t n = 1 + round % 7, m = 1 + (round / 7) % 7, i, j;
		int exact, dup;

		/* distinct values (no ties), sorted per side as an_mwu_p wants */
		for (i = 0; i < n + m; i++) {
			do {
				rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
				v[i] = (double)(rng >> 40 & 1023);
				for (dup = 0, j = 0; j < i; j++)
					dup |= v[j] == v[i];
			} while (dup);
		}
		for (i = 0; i < n; i++)
			a[i] = v[i];
		for (i = 0; i < m; i++)
			b[i] = v[n + i];
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && a[j - 1] > a[j]; j--) {
				double t = a[j];
				a[j] = a[j - 1];
				a[j - 1] = t;
			}
		for (i = 1; i < m; i++)
			for (j = i; j > 0 && b[j - 1] > b[j]; j--) {
				double t = b[j];
				b[j] = b[j - 1];
				b[j - 1] = t;
			}
		CHECK_NEAR(an_mwu_p(a, n, b, m, &exact), brute_p(a, n, b, m), 1e-12);
		CHECK_INT(exact, 1);
	}
}

static void test_mwu_ties(void)
{
	/*
	 * {1,1,2} against {2,3,3}: midranks 1.5 1.5 3.5 | 3.5 5.5 5.5, R1 = 6.5,
	 * U = 6.5 - 6 = 0.5, mean 4.5; ties: three pairs, sum(t^3 - t) = 18;
	 * var = 9/12 * (7 - 18/30) = 4.8; z = (4 - 0.5) / sqrt(4.8).
	 */
	double a[] = {1, 1, 2}, b[] = {2, 3, 3};
	int exact;

	CHECK_NEAR(an_mwu_p(a, 3, b, 3, &exact), erfc(3.5 / sqrt(4.8) / sqrt(2.0)), 1e-12);
	CHECK_INT(exact, 0);
}

/* One run per value on each side: samples are the runs' means, the values themselves. */
static void add_runs(struct an_diff_result *r, int side, const char *key, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		an_diff_begin_run(r, side);
		CHECK_INT(an_diff_add_value(r, side, key, v[i], 1), 0);
	}
}

static const struct an_diff_row *row_of(const struct an_diff_result *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].key, key))
			return &r->rows[i];
	return NULL;
}

static void test_verdicts_and_gate(void)
{
	struct an_diff_opts o = {.level = AN_DIFF_FUNCTIONS, .alpha = 0.05};
	struct an_diff_result r;
	struct xp_err err = {0};
	const struct an_diff_row *x;
	/*
	 * Per side (base, then current), 5 runs: "s" on each, fully separated;
	 * "few" on the first 3 (2/20 = 0.1 >= alpha); a key of the side's own.
	 */
	static const struct run_side {
		double s[5], few[3];
		const char *own;
		double own_ps;
		size_t own_weight;
	} sides[2] = {
		{{10, 11, 12, 13, 14}, {1, 2, 3}, "gone", 5, 1},
		{{20, 21, 22, 23, 24}, {2, 4, 6}, "new", 7, 2},
	};
	size_t i;
	int side;

	an_diff_init(&r, &o);
	for (side = 0; side < 2; side++) {
		const struct run_side *d = &sides[side];

		for (i = 0; i < 5; i++) {
			an_diff_begin_run(&r, side);
			an_diff_add_value(&r, side, "s", d->s[i], 1);
			if (i < 3)
				an_diff_add_value(&r, side, "few", d->few[i], 1);
			an_diff_add_value(&r, side, d->own, d->own_ps, d->own_weight);
		}
	}
	CHECK_INT(an_diff_finish(&r, &err), 0);
	CHECK_INT(r.nrows, 4);
	x = row_of(&r, "s");
	CHECK(x && x->verdict == AN_V_SLOWER);
	if (x) {
		CHECK_NEAR(x->change, 22.0 / 12.0, 1e-15);
		CHECK_NEAR(x->p_u, 2.0 / 252, 1e-15);
		CHECK_INT(x->base.n, 5);
		CHECK(x->base.median == 12 && x->base.min == 10 && x->cur.p95 == 24);
	}
	x = row_of(&r, "few");
	CHECK(x && x->verdict == AN_V_FEW);
	if (x) {
		/*
		 * base {1,2,3}: mean 2, sd 1; current {2,4,6}: mean 4, sd 2. Relative
		 * variances 1/(3*4) = 2^2/(3*16) = 1/12, se = sqrt(1/6), Welch df =
		 * (1/6)^2 / (2 * (1/12)^2 / 2) = 4; t(0.975, 4) = 2.7764451051977987.
		 */
		double se = sqrt(1.0 / 6), t = 2.7764451051977987;

		CHECK_NEAR(x->change, 2, 1e-15);
		CHECK_NEAR(x->ci_lo, 2 * exp(-t * se), 1e-9);
		CHECK_NEAR(x->ci_hi, 2 * exp(t * se), 1e-9);
	}
	x = row_of(&r, "new");
	CHECK(x && x->verdict == AN_V_NEW && x->cur.n == 5 && x->cur.mean == 7);
	x = row_of(&r, "gone");
	CHECK(x && x->verdict == AN_V_GONE);
	/* sorted by |change of the mean|: s (+10), new (7), gone (-5), few (+2) */
	CHECK_STR(r.rows[0].key, "s");
	CHECK_STR(r.rows[1].key, "new");
	CHECK_STR(r.rows[3].key, "few");
	/* the gate: +83% trips 50, not 90; the p95 gate (24 / 14) trips 60, not 80 */
	CHECK_INT(an_diff_gate(&r, 50, -1), 1);
	CHECK_INT(an_diff_gate(&r, 90, -1), 0);
	CHECK_INT(an_diff_gate(&r, -1, 60), 1);
	CHECK_INT(an_diff_gate(&r, -1, 80), 0);
	an_diff_release(&r);
}

static void test_same_runs_pass(void)
{
	/* identical sides: no change, p = 1, same; no gate trips at 0% */
	struct an_diff_opts o = {.alpha = 0.05};
	struct an_diff_result r;
	struct xp_err err = {0};
	double v[] = {5, 6, 7, 8, 9, 10};

	an_diff_init(&r, &o);
	add_runs(&r, 0, "k", v, 6);
	add_runs(&r, 1, "k", v, 6);
	an_diff_finish(&r, &err);
	CHECK(r.nrows == 1 && r.rows[0].verdict == AN_V_SAME);
	CHECK_NEAR(r.rows[0].p_u, 1, 1e-15);
	CHECK_INT(an_diff_gate(&r, 0, 0), 0);
	an_diff_release(&r);
}

static void test_one_run_executions(void)
{
	/* one run per side: the executions are the samples (weight 3: three equal values) */
	struct an_diff_opts o = {.alpha = 0.05};
	struct an_diff_result r;
	struct xp_err err = {0};

	an_diff_init(&r, &o);
	an_diff_begin_run(&r, 0);
	an_diff_add_value(&r, 0, "k", 1, 3);
	an_diff_add_value(&r, 0, "k", 2, 1);
	an_diff_begin_run(&r, 1);
	an_diff_add_value(&r, 1, "k", 4, 4);
	an_diff_finish(&r, &err);
	CHECK_INT(r.rows[0].base.n, 4);
	CHECK_INT(r.rows[0].base.runs, 1);
	CHECK_NEAR(r.rows[0].base.mean, 1.25, 1e-15);
	an_diff_release(&r);
}

int main(void)
{
	test_mwu_exact();
	test_mwu_against_enumeration();
	test_mwu_ties();
	test_verdicts_and_gate();
	test_same_runs_pass();
	test_one_run_executions();
	return test_done("test_diff");
}
