/* SPDX-License-Identifier: Apache-2.0 */
/* Saturating sums and differences of times and sizes: the one copy every layer uses. */
#ifndef XP_SAT_H
#define XP_SAT_H

/*
 * Times (int64 ps) and sizes (uint64 bytes) are added across events, lines,
 * planes and inputs; a result past the type's range is held at that end
 * instead of wrapping (a wrapped busy time reads as a negative one). The
 * _to forms add into *acc and return 1 where the sum was held, for results
 * that say so.
 */
#include <stdint.h>

static inline int64_t xp_sat_add(int64_t x, int64_t y)
{
	int64_t s;

	if (!__builtin_add_overflow(x, y, &s))
		return s;
	return y > 0 ? INT64_MAX : INT64_MIN;
}

static inline int64_t xp_sat_sub(int64_t x, int64_t y)
{
	int64_t d;

	if (!__builtin_sub_overflow(x, y, &d))
		return d;
	return x > y ? INT64_MAX : INT64_MIN;
}

static inline uint64_t xp_sat_add_u64(uint64_t x, uint64_t y)
{
	uint64_t s;

	return __builtin_add_overflow(x, y, &s) ? UINT64_MAX : s;
}

/* x - y, 0 where y is the larger. */
static inline uint64_t xp_sat_sub_u64(uint64_t x, uint64_t y)
{
	return y <= x ? x - y : 0;
}

static inline int xp_sat_add_to(int64_t *acc, int64_t y)
{
	int64_t s;

	if (!__builtin_add_overflow(*acc, y, &s)) {
		*acc = s;
		return 0;
	}
	*acc = y > 0 ? INT64_MAX : INT64_MIN;
	return 1;
}

static inline int xp_sat_add_to_u64(uint64_t *acc, uint64_t y)
{
	if (!__builtin_add_overflow(*acc, y, acc))
		return 0;
	*acc = UINT64_MAX;
	return 1;
}

#endif
