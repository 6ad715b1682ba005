/* SPDX-License-Identifier: Apache-2.0 */
/* an_stats: trimmed summaries, Student-t quantiles and Welch's test against known values. */
#include <float.h>

#include "an_stats.h"
#include "test.h"

static void test_summary(void)
{
	/* {4, 1, 3, 2, 100}: sorted {1,2,3,4,100}; trim 1 keeps {2,3,4}: mean 3, var 2/3. */
	double s[] = {4, 1, 3, 2, 100};
	struct an_summary o;

	CHECK_INT(an_summarize(s, 5, 1, &o), 0);
	CHECK_INT(o.n, 5);
	CHECK_INT(o.n_used, 3);
	CHECK_INT(o.trimmed, 1);
	CHECK(o.total == 110);
	CHECK(o.mean == 3);
	CHECK_NEAR(o.std, sqrt(2.0 / 3.0), 1e-15);
	CHECK(o.sample_std == 1);
	CHECK(o.min == 1 && o.max == 100 && o.median == 3);
	/* t(0.975, 2) = 4.302652729911275; half width = t * 1 / sqrt(3). */
	CHECK_NEAR(o.ci_hi - o.mean, 4.302652729911275 / sqrt(3.0), 1e-9);
	CHECK_NEAR(o.mean - o.ci_lo, 4.302652729911275 / sqrt(3.0), 1e-9);
}

static void test_trim_needs_more_than_2k(void)
{
	/* n = 2 with trim 1: 2 is not > 2, so nothing is dropped. Even n: median is the mean of the middle two. */
	double s[] = {10, 20};
	double t[] = {5, 1, 4, 2};
	struct an_summary o;

	an_summarize(s, 2, 1, &o);
	CHECK_INT(o.n_used, 2);
	CHECK_INT(o.trimmed, 0);
	CHECK(o.mean == 15 && o.std == 5 && o.median == 15);
	an_summarize(t, 4, 0, &o);
	CHECK(o.median == 3);
	CHECK(o.mean == 3);
	CHECK_NEAR(o.std, sqrt(2.5), 1e-15);
	CHECK_INT(an_summarize(t, 0, 0, &o), -1);
}

static void test_single_sample(void)
{
	double s[] = {7};
	struct an_summary o;

	an_summarize(s, 1, 1, &o);
	CHECK(o.mean == 7 && o.std == 0 && o.sample_std == 0);
	CHECK(o.ci_lo == 7 && o.ci_hi == 7);
}

/* Reference two-sided 95% critical values of Student's t: the quantile 0.975, an upper tail of 0.025. */
static const struct {
	double df, t;
} t975[] = {{1, 12.706204736174698}, {4, 2.7764451051977934}, {30, 2.0422724563012373}};

static void test_t_distribution(void)
{
	size_t i;

	for (i = 0; i < sizeof(t975) / sizeof(t975[0]); i++)
		CHECK_NEAR(an_t_quantile(0.975, t975[i].df), t975[i].t, 1e-9);
	CHECK_NEAR(an_t_quantile(0.975, 1e6), 1.959966, 1e-5);
	CHECK_NEAR(an_t_cdf(0, 3), 0.5, 1e-15);
	/* t with 1 df is Cauchy: F(1) = 0.75. */
	CHECK_NEAR(an_t_cdf(1, 1), 0.75, 1e-12);
}

/*
 * log of the upper tail P(T > t), t > 0, by integrating the t density
 * numerically: independent of the library's continued fraction and
 * normalising transformation. In s = log(u / t) the integrand u f(u) / f(t)
 * decays at least like exp(-df s) far out; composite Simpson on a fine grid.
 */
static double ref_log_sf(double t, double df)
{
	double lc = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI);
	double lft = -(df + 1) / 2 * log1p(t * t / df), sum = 0, h, len;
	long i, n = 400000;

	/* the integrand is below e^-60 of its start beyond len */
	len = fmin(60 / df + 60 / (t * t), 700);
	h = len / (double)n;
	for (i = 0; i <= n; i++) {
		double s = h * (double)i, u = t * exp(s);
		double v = exp(s + (-(df + 1) / 2 * log1p(u * u / df)) - lft) * t;

		sum += v * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
	}
	return lc + lft + log(sum * h / 3);
}

static void test_t_tail_closed_forms(void)
{
	static const double ts[] = {0.5, 1, 3, 1e3, 1e20, 1e100, 1e300};
	size_t i;

	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		double t = ts[i], s2 = sqrt(2 + t * t);

		/* df 1 (Cauchy): P(T > t) = atan(1/t) / pi, 3.18e-301 at t = 1e300 */
		CHECK_NEAR(an_t_sf(t, 1), atan(1 / t) / M_PI, 1e-13);
		CHECK_NEAR(an_t_log_sf(t, 1), log(atan(1 / t) / M_PI), 1e-13);
		/* df 2: P(T > t) = (1 - t / sqrt(2 + t^2)) / 2 = 1 / (s (s + t)), s = sqrt(2 + t^2) */
		if (t < 1e150) {
			CHECK_NEAR(an_t_sf(t, 2), 1 / (s2 * (s2 + t)), 1e-13);
			CHECK_NEAR(an_t_sf(-t, 2), 1 - 1 / (s2 * (s2 + t)), 1e-13);
		}
	}
	/* df 2 below the smallest double: 1 / (s (s + t)) = 1 / (2 t^2) (1 + O(t^-2)) */
	CHECK(an_t_sf(1e200, 2) == 0);
	CHECK_NEAR(an_t_log_sf(1e200, 2), -M_LN2 - 400 * M_LN10, 1e-14);
	CHECK_NEAR(an_t_log_sf(1e300, 2), -M_LN2 - 600 * M_LN10, 1e-14);
	CHECK_NEAR(an_t_log_sf(1e300, 1), -log(M_PI) - 300 * M_LN10, 1e-14);
	/* the whole line: symmetric, 1/2 at 0 */
	CHECK_NEAR(an_t_sf(0, 5), 0.5, 1e-15);
	CHECK_NEAR(an_t_sf(-1, 1), 0.75, 1e-15);
	CHECK_NEAR(an_t_cdf(1e20, 1), 1 - 1 / (M_PI * 1e20), 1e-15);
}

static void test_t_tail_integrated(void)
{
	/* df, t and the order of magnitude of the tail the reference must confirm */
	static const struct {
		double df, t, log10_at_most;
	} c[] = {
		{3.5, 2, -1},	  {3.5, 1e6, -20},   {3.5, 1e28, -95},	{3.5, 1e85, -297},
		{7, 3, -2},	  {7, 1500, -20},     {7, 1e15, -100},	{7, 1e42, -290},
		{30, 2, -1},	  {30, 25, -19},     {30, 1e4, -98},	{30, 3e10, -292},
		{250, 1.5, -0.8}, {250, 10, -18},    {250, 40, -98},	{250, 250, -300},
		{1e4, 1, -0.5},	  {1e4, 9.2, -19},   {1e4, 22, -100},	{1e4, 40, -300},
		{1e6, 2.5, -2},	  {1e6, 21.3, -99},  {1e6, 37.5, -300},
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		double ref = ref_log_sf(c[i].t, c[i].df), got = an_t_log_sf(c[i].t, c[i].df);

		if (!(ref / M_LN10 <= c[i].log10_at_most))
			fprintf(stderr, "case %zu: reference tail 1e%.1f, not as small as meant\n", i,
				ref / M_LN10);
		CHECK(ref / M_LN10 <= c[i].log10_at_most);
		/* the log to 1e-9 of itself (p to 1e-9 relative for moderate logs) */
		CHECK_NEAR(got, ref, 1e-9 / fmax(1, fabs(ref)) + 1e-12);
		if (ref > log(DBL_MIN))
			CHECK_NEAR(an_t_sf(c[i].t, c[i].df), exp(ref), 1e-9);
	}
}

static void test_t_tail_normal_limit(void)
{
	/* df 1e15: the t tail equals the normal one to ~t^4/(4 df) < 1e-9 here. */
	static const double zs[] = {0.5, 2, 5, 9.3, 21.3, 37};
	size_t i;

	for (i = 0; i < sizeof(zs) / sizeof(zs[0]); i++)
		CHECK_NEAR(an_t_sf(zs[i], 1e15), erfc(zs[i] / M_SQRT2) / 2, 1e-9);
	/* erfc(37/sqrt 2)/2 = 5.7e-300 was just checked; beyond the doubles, Mills' bounds
	 * phi(z) z / (1 + z^2) < Q(z) < phi(z) / z at z = 40 (Q ~ 3.7e-350) */
	{
		double z = 40, lphi = -z * z / 2 - 0.5 * log(2 * M_PI), got = an_t_log_sf(z, 1e15);

		CHECK(an_t_sf(z, 1e15) == 0);
		CHECK(got > lphi + log(z / (1 + z * z)) && got < lphi - log(z));
	}
}

static void test_t_tail_tables(void)
{
	size_t i;

	/* Two-sided 5% and 0.1% critical values: the upper tail is 0.025 resp. 0.0005. */
	for (i = 0; i < sizeof(t975) / sizeof(t975[0]); i++)
		CHECK_NEAR(an_t_sf(t975[i].t, t975[i].df), 0.025, 1e-12);
	/*
	 * Three-decimal table values (NIST/SEMATECH e-Handbook 1.3.6.7.2): the
	 * rounding of t moves the tail by under 0.2% here.
	 */
	CHECK_NEAR(an_t_sf(2.228, 10), 0.025, 2e-3);
	CHECK_NEAR(an_t_sf(6.869, 5), 0.0005, 2e-3);
	CHECK_NEAR(an_t_sf(3.850, 20), 0.0005, 2e-3);
}

static void test_welch(void)
{
	struct an_summary a = {0}, b = {0};

	/* Identical means: p = 1. */
	a.n_used = b.n_used = 5;
	a.mean = b.mean = 10;
	a.sample_std = 1;
	b.sample_std = 2;
	CHECK_NEAR(an_welch_p(&a, &b), 1, 1e-12);
	/* Equal variances and sizes: t = (m1-m2)/sqrt(2 s^2/n); with s=1, n=5, diff=1: t=1.5811, df=8, p=0.1525. */
	b.mean = 11;
	b.sample_std = 1;
	CHECK_NEAR(an_welch_p(&a, &b), 0.15246, 1e-3);
	/* Too few samples: no test, p = 1. */
	a.n_used = 1;
	CHECK(an_welch_p(&a, &b) == 1);
}

static void test_welch_far_apart(void)
{
	struct an_summary a = {0}, b = {0};
	struct an_welch w;

	/*
	 * Means 100 and 200, sd 1, 5 samples each: se^2 = 1/5 + 1/5, t = -100 / sqrt(0.4),
	 * df = 0.16 / (0.04/4 + 0.04/4) = 8. The old 2 (1 - cdf) gave exactly 0 here.
	 */
	a.n_used = b.n_used = 5;
	a.mean = 100;
	b.mean = 200;
	a.sample_std = b.sample_std = 1;
	an_welch(&a, &b, &w);
	CHECK_INT(w.tested, 1);
	CHECK_NEAR(w.t, -100 / sqrt(0.4), 1e-14);
	CHECK_NEAR(w.df, 8, 1e-14);
	CHECK(w.p > 0);
	CHECK_NEAR(log(w.p), M_LN2 + ref_log_sf(100 / sqrt(0.4), 8), 1e-9);
	CHECK_NEAR(w.log10_p, log10(w.p), 1e-14);
	/* 1e6 apart: p ~ 1e-43 */
	b.mean = 1e6 + 100;
	an_welch(&a, &b, &w);
	CHECK_NEAR(w.log10_p * M_LN10, M_LN2 + ref_log_sf(1e6 / sqrt(0.4), 8), 1e-9);
	/* 1e60 apart: p ~ 1e-483, below the doubles: p = 0 and log10_p exact */
	b.mean = 1e60;
	an_welch(&a, &b, &w);
	CHECK(w.p == 0);
	CHECK(w.log10_p < -400 && isfinite(w.log10_p));
	CHECK_NEAR(w.log10_p * M_LN10, M_LN2 + ref_log_sf(1e60 / sqrt(0.4), 8), 1e-9);
	/* No spread on either side: equal means p = 1, different means p exactly 0 (t infinite). */
	a.sample_std = b.sample_std = 0;
	an_welch(&a, &b, &w);
	CHECK(w.p == 0 && isinf(w.log10_p) && w.log10_p < 0);
	b.mean = a.mean;
	an_welch(&a, &b, &w);
	CHECK(w.p == 1 && w.log10_p == 0);
}

int main(void)
{
	test_summary();
	test_trim_needs_more_than_2k();
	test_single_sample();
	test_t_distribution();
	test_welch();
	test_welch_far_apart();
	test_t_tail_closed_forms();
	test_t_tail_integrated();
	test_t_tail_normal_limit();
	test_t_tail_tables();
	return test_done("test_stats");
}
