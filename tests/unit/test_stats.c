/* an_stats: trimmed summaries, Student-t quantiles and Welch's test against known values. */
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

static void test_t_distribution(void)
{
	/* Reference quantiles of Student's t (two-sided 95%). */
	CHECK_NEAR(an_t_quantile(0.975, 1), 12.706204736174698, 1e-9);
	CHECK_NEAR(an_t_quantile(0.975, 4), 2.7764451051977934, 1e-9);
	CHECK_NEAR(an_t_quantile(0.975, 30), 2.0422724563012373, 1e-9);
	CHECK_NEAR(an_t_quantile(0.975, 1e6), 1.959966, 1e-5);
	CHECK_NEAR(an_t_cdf(0, 3), 0.5, 1e-15);
	/* t with 1 df is Cauchy: F(1) = 0.75. */
	CHECK_NEAR(an_t_cdf(1, 1), 0.75, 1e-12);
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

int main(void)
{
	test_summary();
	test_trim_needs_more_than_2k();
	test_single_sample();
	test_t_distribution();
	test_welch();
	return test_done("test_stats");
}
