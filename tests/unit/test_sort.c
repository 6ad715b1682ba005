/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xp_sort_by_i64 against qsort by (key, original position): the same order,
 * record for record, which checks both the order and the stability. Keys:
 * negative and positive, the int64 extremes, many duplicates, and keys that
 * share their high digits (the skipped passes); record sizes 16, 24 and 40.
 * The comparisons qsort comparators share (xp_cmp_i64, xp_cmp_u64) as well.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "xp_sort.h"

struct rec24 {
	uint64_t pos;		/* original position: the tie-break */
	int64_t key;
	uint64_t pad;
};

static int by_key_pos(const void *a, const void *b)
{
	const struct rec24 *x = a, *y = b;
	int c = xp_cmp_i64(x->key, y->key);

	return c ? c : xp_cmp_u64(x->pos, y->pos);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int64_t key_of(uint64_t *s, int kind)
{
	switch (kind) {
	case 0:
		return (int64_t)rnd(s);				/* the whole range */
	case 1:
		return (int64_t)(rnd(s) % 7) - 3;		/* many duplicates around 0 */
	case 2:
		return 1700000000000000000 + (int64_t)(rnd(s) % 1000000);	/* high digits shared */
	default: {
		static const int64_t ext[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX};

		return ext[rnd(s) % 7];
	}
	}
}

static void one(size_t n, int kind, uint64_t seed)
{
	struct rec24 *a = malloc((n + 1) * sizeof(*a)), *b = malloc((n + 1) * sizeof(*b));
	size_t i;

	for (i = 0; i < n; i++) {
		a[i].pos = i;
		a[i].key = key_of(&seed, kind);
		a[i].pad = ~(uint64_t)i;
	}
	memcpy(b, a, n * sizeof(*a));
	qsort(b, n, sizeof(*b), by_key_pos);
	CHECK_INT(xp_sort_by_i64(a, n, sizeof(*a), offsetof(struct rec24, key)), 0);
	for (i = 0; i < n; i++) {
		if (a[i].pos != b[i].pos || a[i].key != b[i].key || a[i].pad != ~a[i].pos) {
			fprintf(stderr, "n=%zu kind=%d: record %zu differs\n", n, kind, i);
			test_failures++;
			break;
		}
	}
	free(a);
	free(b);
}

/* 16-byte records, key first (overview's intervals), and 40-byte ones (byte 0: the position). */
static void other_sizes(void)
{
	int64_t iv[5000][2];
	unsigned char big[200][40];
	uint64_t s = 99;
	size_t i;

	for (i = 0; i < 5000; i++) {
		iv[i][0] = (int64_t)(rnd(&s) % 100000) - 50000;
		iv[i][1] = (int64_t)i;
	}
	CHECK_INT(xp_sort_by_i64(iv, 5000, sizeof(iv[0]), 0), 0);
	for (i = 1; i < 5000; i++)
		if (iv[i][0] < iv[i - 1][0] || (iv[i][0] == iv[i - 1][0] && iv[i][1] < iv[i - 1][1]))
			test_failures++, fprintf(stderr, "16-byte records: out of order at %zu\n", i);
	for (i = 0; i < 200; i++) {
		int64_t k = (int64_t)(rnd(&s) % 50);

		memset(big[i], (int)i, sizeof(big[i]));
		memcpy(big[i] + 32, &k, sizeof(k));
	}
	CHECK_INT(xp_sort_by_i64(big, 200, sizeof(big[0]), 32), 0);
	for (i = 1; i < 200; i++) {
		int64_t x, y;

		memcpy(&x, big[i - 1] + 32, sizeof(x));
		memcpy(&y, big[i] + 32, sizeof(y));
		if (x > y || (x == y && big[i - 1][0] > big[i][0]))
			test_failures++, fprintf(stderr, "40-byte records: out of order at %zu\n", i);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Doubles against a merge sort of its own with the same comparison (stable:
 * 0.0 and -0.0 keep their order), bit for bit; a NaN is refused, the values
 * left as they were.
 */
static void doubles(void)
{
	enum { N = 3000 };
	static double a[N], b[N], tmp[N];
	uint64_t s = 7;
	size_t i, w, lo;

	for (i = 0; i < N; i++) {
		uint64_t r = rnd(&s);

		switch (r % 6) {
		case 0:
			a[i] = 0.0;
			break;
		case 1:
			a[i] = -0.0;
			break;
		case 2:
			a[i] = (double)(int64_t)(r >> 8) / 1e9;	/* either sign */
			break;
		case 3:
			a[i] = r & 64 ? INFINITY : -INFINITY;
			break;
		case 4:
			a[i] = (double)(r % 5) - 2;		/* small integers, repeated */
			break;
		default:
			a[i] = (r & 128 ? -1 : 1) * 1e-310 * (double)(r % 7);	/* subnormals */
		}
	}
	memcpy(b, a, sizeof(a));
	/* bottom-up merge sort: stable, the comparison qsort gets */
	for (w = 1; w < N; w *= 2) {
		for (lo = 0; lo < N; lo += 2 * w) {
			size_t mid = lo + w < N ? lo + w : N, hi = lo + 2 * w < N ? lo + 2 * w : N;
			size_t x = lo, y = mid, o = lo;

			while (x < mid && y < hi)
				tmp[o++] = cmp_double(&b[y], &b[x]) < 0 ? b[y++] : b[x++];
			while (x < mid)
				tmp[o++] = b[x++];
			while (y < hi)
				tmp[o++] = b[y++];
		}
		memcpy(b, tmp, sizeof(b));
	}
	CHECK_INT(xp_sort_doubles(a, N), 0);
	if (memcmp(a, b, sizeof(a)))
		test_failures++, fprintf(stderr, "doubles: not the stable order\n");
	a[N / 2] = NAN;
	memcpy(b, a, sizeof(a));
	CHECK_INT(xp_sort_doubles(a, N), -1);
	CHECK(!memcmp(a, b, sizeof(a)));
}

/* The comparators' comparisons, which the order above is checked against: the extremes and neighbours. */
static void comparisons(void)
{
	CHECK_INT(xp_cmp_i64(INT64_MIN, INT64_MAX), -1);
	CHECK_INT(xp_cmp_i64(INT64_MAX, INT64_MIN), 1);
	CHECK_INT(xp_cmp_i64(-1, 0), -1);
	CHECK_INT(xp_cmp_i64(INT64_MIN, INT64_MIN), 0);
	CHECK_INT(xp_cmp_u64(UINT64_MAX, 0), 1);
	CHECK_INT(xp_cmp_u64(0, UINT64_MAX), -1);
	CHECK_INT(xp_cmp_u64((uint64_t)1 << 63, ((uint64_t)1 << 63) - 1), 1);
	CHECK_INT(xp_cmp_u64(UINT64_MAX, UINT64_MAX), 0);
}

/* Lower bounds against a linear scan: int64 keys across the sign, uint64 keys past 2^63, every probe. */
static void lower_bounds(void)
{
	static const int64_t si[] = {INT64_MIN, -5, -5, -1, 0, 0, 3, INT64_MAX};
	static const uint64_t ui[] = {0, 1, 1, (uint64_t)1 << 63, ((uint64_t)1 << 63) + 1, UINT64_MAX};
	static const int64_t sprobe[] = {INT64_MIN, -6, -5, -2, -1, 0, 1, 3, 4, INT64_MAX};
	static const uint64_t uprobe[] = {0, 1, 2, ((uint64_t)1 << 63) - 1, (uint64_t)1 << 63, UINT64_MAX};
	size_t i, k, want;

	for (i = 0; i < sizeof(sprobe) / sizeof(sprobe[0]); i++) {
		for (want = 0, k = 0; k < sizeof(si) / sizeof(si[0]); k++)
			want += si[k] < sprobe[i];
		CHECK_INT(xp_lower_bound_i64(si, sizeof(si) / sizeof(si[0]), sizeof(si[0]), 0, sprobe[i]), want);
	}
	for (i = 0; i < sizeof(uprobe) / sizeof(uprobe[0]); i++) {
		for (want = 0, k = 0; k < sizeof(ui) / sizeof(ui[0]); k++)
			want += ui[k] < uprobe[i];
		CHECK_INT(xp_lower_bound_u64(ui, sizeof(ui) / sizeof(ui[0]), sizeof(ui[0]), 0, uprobe[i]), want);
	}
	CHECK_INT(xp_lower_bound_i64(NULL, 0, sizeof(int64_t), 0, 7), 0);
}

int main(void)
{
	static const size_t sizes[] = {0, 1, 2, 3, 47, 48, 49, 1000, 65537, 200000};
	size_t i;
	int kind;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (kind = 0; kind < 4; kind++)
			one(sizes[i], kind, 0x9e3779b97f4a7c15ull + i * 31 + (uint64_t)kind);
	comparisons();
	other_sizes();
	doubles();
	lower_bounds();
	return test_done("sort");
}
