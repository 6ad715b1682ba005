/* SPDX-License-Identifier: Apache-2.0 */
/* Sorting many records by an int64 key (the analyses' intervals and spans), and comparators' comparisons. */
#ifndef XP_SORT_H
#define XP_SORT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Sorts n records of size bytes ascending by the int64 at byte key_off of
 * each, stably (records with equal keys keep their order): a radix sort,
 * 11 bits a pass, a pass skipped where every key has the same digit, so a
 * few passes over the records instead of n log n calls of a comparison.
 * Takes n * size bytes of scratch: -1 when out of memory (the records as
 * they were), else 0.
 */
int xp_sort_by_i64(void *base, size_t n, size_t size, size_t key_off);
/* The same by a uint64 key. */
int xp_sort_by_u64(void *base, size_t n, size_t size, size_t key_off);
/*
 * Sorts doubles ascending as qsort with a < comparison would, equal values
 * (0.0 and -0.0 among them) keeping their order: -1 when out of memory or
 * when one is a NaN (which such a comparison leaves unordered), the values
 * as they were.
 */
int xp_sort_doubles(double *v, size_t n);

/*
 * The first of n records of size bytes, sorted ascending by the uint64 at
 * byte key_off of each, whose key is at least key; n when none is.
 */
size_t xp_lower_bound_u64(const void *base, size_t n, size_t size, size_t key_off, uint64_t key);
/* The same by an int64 key. */
size_t xp_lower_bound_i64(const void *base, size_t n, size_t size, size_t key_off, int64_t key);

/*
 * Three-way comparisons for qsort comparators: -1, 0 or 1 as a is below,
 * equal to or above b. A comparator orders by its keys in turn with
 * `if ((c = xp_cmp_i64(...)) || (c = ...)) return c;` and breaks the last
 * tie by position where it must give the order of a stable sort. Pass
 * signed fields to the first, unsigned ones (sizes, positions) to the second.
 */
static inline int xp_cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static inline int xp_cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

#endif
