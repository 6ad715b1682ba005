/* SPDX-License-Identifier: Apache-2.0 */
#include "xp_sort.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xp_arena.h"

#define DIGIT_BITS 11
#define DIGITS ((64 + DIGIT_BITS - 1) / DIGIT_BITS)
#define BUCKETS (1u << DIGIT_BITS)
/* Below this many records a stable insertion sort is quicker than the tables. */
#define SMALL 48

/*
 * The key as an unsigned number in the same order: an int64's sign bit
 * flipped (flip = 1 << 63), a uint64 as it is (flip = 0).
 */
static inline uint64_t key_at(const unsigned char *rec, size_t key_off, uint64_t flip)
{
	uint64_t k;

	memcpy(&k, rec + key_off, sizeof(k));
	return k ^ flip;
}

static void insertion(unsigned char *b, size_t n, size_t size, size_t key_off, uint64_t flip,
		      unsigned char *tmp)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		uint64_t k = key_at(b + i * size, key_off, flip);

		for (j = i; j > 0 && key_at(b + (j - 1) * size, key_off, flip) > k; j--)
			;
		if (j == i)
			continue;
		memcpy(tmp, b + i * size, size);
		memmove(b + (j + 1) * size, b + j * size, (i - j) * size);
		memcpy(b + j * size, tmp, size);
	}
}

/* One pass: src to dst by digit d, through the prefix sums in pos. */
static void scatter(const unsigned char *src, unsigned char *dst, size_t n, size_t size,
		    size_t key_off, uint64_t flip, unsigned d, size_t *pos)
{
	size_t i;

#define SCATTER(SZ)                                                                  \
	for (i = 0; i < n; i++) {                                                    \
		const unsigned char *r = src + i * (SZ);                             \
		unsigned b = (unsigned)(key_at(r, key_off, flip) >> (d * DIGIT_BITS)) & (BUCKETS - 1); \
		memcpy(dst + pos[b]++ * (SZ), r, (SZ));                              \
	}
	/* The usual sizes as constants: a memcpy the compiler inlines. */
	if (size == 16)
		SCATTER(16)
	else if (size == 24)
		SCATTER(24)
	else
		SCATTER(size)
#undef SCATTER
}

static int sort_by(void *base, size_t n, size_t size, size_t key_off, uint64_t flip)
{
	unsigned char *b = base, *tmp, *src, *dst;
	size_t (*count)[BUCKETS], i;
	unsigned d;

	if (n < 2)
		return 0;
	if (n < SMALL) {
		unsigned char one[256];

		if (size <= sizeof(one)) {
			insertion(b, n, size, key_off, flip, one);
			return 0;
		}
	}
	count = calloc(DIGITS, sizeof(*count));
	tmp = xp_malloc_big(n, size);
	if (!count || !tmp) {
		free(count);
		free(tmp);
		return -1;
	}
	for (i = 0; i < n; i++) {
		uint64_t k = key_at(b + i * size, key_off, flip);

		for (d = 0; d < DIGITS; d++)
			count[d][(k >> (d * DIGIT_BITS)) & (BUCKETS - 1)]++;
	}
	src = b;
	dst = tmp;
	for (d = 0; d < DIGITS; d++) {
		size_t sum = 0, c, *pos = count[d];
		unsigned k;

		/* A digit every key shares orders nothing. */
		if (pos[(key_at(b, key_off, flip) >> (d * DIGIT_BITS)) & (BUCKETS - 1)] == n)
			continue;
		for (k = 0; k < BUCKETS; k++) {
			c = pos[k];
			pos[k] = sum;
			sum += c;
		}
		scatter(src, dst, n, size, key_off, flip, d, pos);
		src = dst;
		dst = dst == tmp ? b : tmp;
	}
	if (src != b)
		memcpy(b, src, n * size);
	free(count);
	free(tmp);
	return 0;
}

int xp_sort_by_i64(void *base, size_t n, size_t size, size_t key_off)
{
	return sort_by(base, n, size, key_off, (uint64_t)1 << 63);
}

int xp_sort_by_u64(void *base, size_t n, size_t size, size_t key_off)
{
	return sort_by(base, n, size, key_off, 0);
}

/* A double and its key: an unsigned number in the double's order. */
struct dkey {
	uint64_t key;
	double v;
};

int xp_sort_doubles(double *v, size_t n)
{
	struct dkey *k;
	size_t i;

	if (n < 2)
		return 0;
	if (!(k = xp_malloc_big(n, sizeof(*k))))
		return -1;
	for (i = 0; i < n; i++) {
		uint64_t b;
		double x = v[i] == 0 ? 0.0 : v[i];	/* -0.0 sorts with 0.0 */

		if (x != x) {
			free(k);
			return -1;
		}
		memcpy(&b, &x, sizeof(b));
		/* negative: every bit flipped; positive: the sign bit set */
		k[i].key = b >> 63 ? ~b : b | (uint64_t)1 << 63;
		k[i].v = v[i];
	}
	if (xp_sort_by_u64(k, n, sizeof(*k), offsetof(struct dkey, key))) {
		free(k);
		return -1;
	}
	for (i = 0; i < n; i++)
		v[i] = k[i].v;
	free(k);
	return 0;
}

/*
 * The lower bound over uint64 keys, each (and key) XORed with flip first:
 * 1 << 63 turns int64 order into uint64 order, so one search serves both.
 */
static size_t lower_bound(const void *base, size_t n, size_t size, size_t key_off, uint64_t key, uint64_t flip)
{
	const unsigned char *b = base;
	size_t lo = 0, hi = n;

	key ^= flip;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;

		memcpy(&k, b + mid * size + key_off, sizeof(k));
		if ((k ^ flip) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t xp_lower_bound_u64(const void *base, size_t n, size_t size, size_t key_off, uint64_t key)
{
	return lower_bound(base, n, size, key_off, key, 0);
}

size_t xp_lower_bound_i64(const void *base, size_t n, size_t size, size_t key_off, int64_t key)
{
	return lower_bound(base, n, size, key_off, (uint64_t)key, (uint64_t)1 << 63);
}
