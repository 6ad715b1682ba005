/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Durations too many to keep one by one, for run summaries: exact moments
 * (count, integer sum and sum of squares, min, max), from which the mean and
 * standard deviation come out the same whatever the order of adding and
 * merging, and a log-bucket quantile sketch (DDSketch's mapping: a value v
 * >= 1 falls in bucket ceil(log_g v), g = (1 + a) / (1 - a), and the bucket
 * stands for 2 g^i / (g + 1), within a relative a of every value in it;
 * zeros are counted apart). Buckets hold integer counts, so merging is exact
 * and any order gives the same sketch. a = AN_SKETCH_ALPHA.
 *
 * Values are non-negative int64 picoseconds.
 */
#ifndef AN_SKETCH_H
#define AN_SKETCH_H

#include <stddef.h>
#include <stdint.h>

/* The sketch's relative accuracy: a quantile read from it is within 0.5% of the exact one. */
#define AN_SKETCH_ALPHA 0.005

struct an_moments {
	uint64_t n;
	unsigned __int128 s1;	/* sum: below 2^127 for any n < 2^64 */
	uint64_t s2[3];		/* sum of squares, 192 bits, least significant limb first */
	int64_t min, max;	/* when n > 0 */
};

void an_moments_add(struct an_moments *m, int64_t v);
void an_moments_merge(struct an_moments *d, const struct an_moments *s);
/* The sum as a double (rounded once). */
double an_moments_sum(const struct an_moments *m);
/*
 * Population standard deviation: sqrt(n * s2 - s1^2) / n with the
 * difference taken exactly (256-bit), so that it depends on the moments only.
 */
double an_moments_std(const struct an_moments *m);
/*
 * Whether the moments could come from n values in [min, max]: s1 and s2
 * within n times the bounds and n * s2 >= s1^2. 1 yes, 0 no.
 */
int an_moments_plausible(const struct an_moments *m);
/* s2 in decimal (at most 58 digits and a NUL); and back: 0, or -1 if not digits or beyond 192 bits. */
void an_u192_format(const uint64_t w[3], char *buf, size_t n);
int an_u192_parse(const char *s, uint64_t w[3]);

struct an_sketch {
	uint64_t zeros;
	int32_t *idx;		/* bucket indexes, ascending */
	uint64_t *cnt;		/* their counts, each >= 1 */
	size_t n, cap;
};

/* The bucket of v >= 1; and the largest index a value can have (that of INT64_MAX). */
int32_t an_sketch_index(int64_t v);
int32_t an_sketch_max_index(void);
/* The value bucket i stands for. */
double an_sketch_value(int32_t i);
/* Adds n values sorted ascending. 0, or -1 when out of memory. */
int an_sketch_add_sorted(struct an_sketch *s, const int64_t *v, size_t n);
/* Adds src's counts to dst. 0, or -1 when out of memory. */
int an_sketch_merge(struct an_sketch *dst, const struct an_sketch *src);
/* Appends a bucket above the last (for readers); 0, or -1 when out of memory. */
int an_sketch_push(struct an_sketch *s, int32_t idx, uint64_t count);
uint64_t an_sketch_count(const struct an_sketch *s);
/* The value of rank k (1-based, k <= count): 0 in the zeros, else its bucket's value. */
double an_sketch_rank(const struct an_sketch *s, uint64_t k);
void an_sketch_release(struct an_sketch *s);

#endif
