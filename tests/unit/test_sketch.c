/* SPDX-License-Identifier: Apache-2.0 */
/*
 * an_sketch: exact moments against a direct computation, 192-bit decimals,
 * the sketch's stated relative accuracy (AN_SKETCH_ALPHA) against exact
 * quantiles of a generated long-tailed distribution (as kernels computes
 * them from a summary's sketch), and merging in any order giving the same
 * sketch and moments.
 */
#include <stdlib.h>
#include <string.h>

#include "an_kernels.h"
#include "an_sketch.h"
#include "test.h"

/* A fixed generator: the same values on every machine. */
static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

/* Log-normal picoseconds around 20 us, with a few zeros and a tail to milliseconds. */
static int64_t duration(void)
{
	double z = sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());

	if (uniform() < 0.002)
		return 0;
	return (int64_t)llround(2e7 * exp(1.2 * z));
}

static void test_moments(void)
{
	static const int64_t v[] = {0, 1, 3, 1000000, 999999999999, 7, 7, 123456789};
	struct an_moments a = {0}, b = {0}, all = {0}, ba = {0};
	long double sum = 0, ss = 0, mean;
	size_t i, n = sizeof(v) / sizeof(v[0]);
	char buf[64];
	uint64_t w[3], big[3] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};

	for (i = 0; i < n; i++) {
		an_moments_add(i < 3 ? &a : &b, v[i]);
		an_moments_add(&all, v[i]);
		sum += v[i];
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	ba = b;
	an_moments_merge(&ba, &a);
	an_moments_merge(&a, &b);
	CHECK(!memcmp(&a, &all, sizeof(a)));
	CHECK(!memcmp(&ba, &all, sizeof(a)));
	CHECK_INT(all.min, 0);
	CHECK_INT(all.max, 999999999999);
	CHECK(an_moments_sum(&all) == (double)sum);
	CHECK_NEAR(an_moments_std(&all), sqrtl(ss / n), 1e-15);
	CHECK_INT(an_moments_plausible(&all), 1);
	/* a sum of squares below what the sum needs: no real values have it */
	b = all;
	b.s2[0] = 1;
	b.s2[1] = b.s2[2] = 0;
	CHECK_INT(an_moments_plausible(&b), 0);
	b = all;
	b.s1 = 0;
	CHECK_INT(an_moments_plausible(&b), 0);
	b = all;
	b.min = b.max + 1;
	CHECK_INT(an_moments_plausible(&b), 0);
	b = all;
	b.max = 1000;	/* the sum needs a value above */
	CHECK_INT(an_moments_plausible(&b), 0);
	/* the largest values: squares past 128 bits, carried exactly */
	memset(&b, 0, sizeof(b));
	for (i = 0; i < 5; i++)
		an_moments_add(&b, INT64_MAX);
	CHECK(b.s2[2] != 0);
	CHECK_INT(an_moments_plausible(&b), 1);
	CHECK(an_moments_std(&b) == 0);
	an_u192_format(b.s2, buf, sizeof(buf));
	CHECK_STR(buf, "425352958651173079236984538921162506245");	/* 5 (2^63 - 1)^2 */
	CHECK_INT(an_u192_parse(buf, w), 0);
	CHECK(!memcmp(w, b.s2, sizeof(w)));
	an_u192_format(big, buf, sizeof(buf));
	CHECK_STR(buf, "6277101735386680763835789423207666416102355444464034512895");
	CHECK_INT(an_u192_parse(buf, w), 0);
	CHECK_INT(an_u192_parse("6277101735386680763835789423207666416102355444464034512896", w), -1);
	CHECK_INT(an_u192_parse("", w), -1);
	CHECK_INT(an_u192_parse("12a", w), -1);
	CHECK_INT(an_u192_parse("-1", w), -1);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Every bucket's value is within alpha of every value that falls in it. */
static void test_buckets(void)
{
	size_t i, bad = 0;

	for (i = 0; i < 200000; i++) {
		int64_t v = i < 1000 ? (int64_t)i + 1 : (int64_t)(uniform() * 1e15) + 1;
		double e = an_sketch_value(an_sketch_index(v));

		bad += fabs(e - (double)v) > AN_SKETCH_ALPHA * (double)v * (1 + 1e-9);
	}
	CHECK_INT(bad, 0);
	CHECK(an_sketch_index(INT64_MAX) == an_sketch_max_index());
	CHECK(an_sketch_max_index() > 4000 && an_sketch_max_index() < 5000);
}

/* A BY_ALL result of one row holding v as the summary would (samples or sketch). */
static void one_row(struct an_kern_result *r, int64_t *v, size_t n, int sketch)
{
	struct an_kern_row key = {.name = "k", .config = ""};
	struct an_kern_digest d = {0};
	size_t i;

	an_kern_init(r, &(struct an_kern_opts){.by = AN_KERN_BY_ALL});
	if (sketch) {
		for (i = 0; i < n; i++)
			an_moments_add(&d.m, v[i]);
		qsort(v, n, sizeof(*v), cmp_i64);
		CHECK_INT(an_sketch_add_sorted(&d.s, v, n), 0);
	} else {
		d.samples = v;
		d.n = n;
	}
	CHECK_INT(an_kern_put_row(r, &key, &d), 0);
	CHECK_INT(an_kern_put_row(r, &key, &d), 1);	/* the same key again */
	r->kernel_sum = d.m.s1;
	an_kern_digest_release(&d);
}

static void check_near(double approx, double exact, size_t *bad)
{
	/* AN_SKETCH_ALPHA relative, and half a picosecond where the quantile is rounded to one */
	*bad += fabs(approx - exact) > AN_SKETCH_ALPHA * exact + 0.5;
}

/* kernels' median, p90 and p99 from a sketch of n values, against the exact ones. */
static void test_accuracy(size_t n, size_t *bad)
{
	int64_t *v = malloc(n * sizeof(*v)), *w = malloc(n * sizeof(*w));
	struct an_kern_result exact, approx, part;
	struct an_kern_opts byname = {.by = AN_KERN_BY_NAME};
	struct xp_err err = {0};
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = w[i] = duration();
	an_kern_init(&exact, &byname);
	an_kern_init(&approx, &byname);
	one_row(&part, v, n, 0);
	CHECK_INT(an_kern_merge(&exact, &part, &err), 0);
	an_kern_release(&part);
	/* three summaries' sketches pooled */
	one_row(&part, w, n / 3, 1);
	CHECK_INT(an_kern_merge(&approx, &part, &err), 0);
	an_kern_release(&part);
	one_row(&part, w + n / 3, n / 3, 1);
	CHECK_INT(an_kern_merge(&approx, &part, &err), 0);
	an_kern_release(&part);
	one_row(&part, w + 2 * (n / 3), n - 2 * (n / 3), 0);
	CHECK_INT(an_kern_merge(&approx, &part, &err), 0);
	an_kern_release(&part);
	CHECK_INT(an_kern_finish(&exact, &err), 0);
	CHECK_INT(an_kern_finish(&approx, &err), 0);
	CHECK_INT(exact.nrows, 1);
	CHECK_INT(approx.nrows, 1);
	CHECK_INT(exact.rows[0].approximate, 0);
	CHECK_INT(approx.rows[0].approximate, 1);
	CHECK_INT(approx.approximate, 1);
	CHECK_INT(approx.rows[0].instances, n);
	/* the moments are exact: the same total, mean and std to the bit */
	CHECK(approx.rows[0].total == exact.rows[0].total);
	CHECK(approx.rows[0].mean == exact.rows[0].mean);
	CHECK(approx.rows[0].std == exact.rows[0].std);
	CHECK_INT(approx.rows[0].min, exact.rows[0].min);
	CHECK_INT(approx.rows[0].max, exact.rows[0].max);
	check_near(approx.rows[0].median, exact.rows[0].median, bad);
	check_near((double)approx.rows[0].p90, (double)exact.rows[0].p90, bad);
	check_near((double)approx.rows[0].p99, (double)exact.rows[0].p99, bad);
	an_kern_release(&exact);
	an_kern_release(&approx);
	free(v);
	free(w);
}

/* Sketches of parts merged in two orders: the same buckets. */
static void test_merge_order(void)
{
	struct an_sketch a = {0}, b = {0}, c = {0}, abc = {0}, cba = {0};
	int64_t v[3000];
	size_t i;

	for (i = 0; i < 3000; i++)
		v[i] = duration();
	qsort(v, 1000, sizeof(*v), cmp_i64);
	qsort(v + 1000, 1000, sizeof(*v), cmp_i64);
	qsort(v + 2000, 1000, sizeof(*v), cmp_i64);
	CHECK_INT(an_sketch_add_sorted(&a, v, 1000), 0);
	CHECK_INT(an_sketch_add_sorted(&b, v + 1000, 1000), 0);
	CHECK_INT(an_sketch_add_sorted(&c, v + 2000, 1000), 0);
	an_sketch_merge(&abc, &a);
	an_sketch_merge(&abc, &b);
	an_sketch_merge(&abc, &c);
	an_sketch_merge(&cba, &c);
	an_sketch_merge(&cba, &b);
	an_sketch_merge(&cba, &a);
	CHECK_INT(abc.n, cba.n);
	CHECK_INT(abc.zeros, cba.zeros);
	CHECK(!memcmp(abc.idx, cba.idx, abc.n * sizeof(*abc.idx)));
	CHECK(!memcmp(abc.cnt, cba.cnt, abc.n * sizeof(*abc.cnt)));
	CHECK_INT(an_sketch_count(&abc), 3000);
	for (i = 1; i < abc.n; i++)
		CHECK(abc.idx[i] > abc.idx[i - 1]);
	an_sketch_release(&a);
	an_sketch_release(&b);
	an_sketch_release(&c);
	an_sketch_release(&abc);
	an_sketch_release(&cba);
}

int main(void)
{
	size_t bad = 0, n;

	test_moments();
	test_buckets();
	for (n = 300; n <= 300000; n *= 10)
		test_accuracy(n, &bad);
	test_accuracy(257, &bad);
	test_accuracy(1001, &bad);
	CHECK_INT(bad, 0);
	test_merge_order();
	return test_done("test_sketch");
}
