/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xp_grow and xp_reserve (xp_arena.h): the capacity doubles; appending many
 * small arrays one by one reallocates O(log n) times, not once per append;
 * a reserve past SIZE_MAX fails with the array untouched; the contents
 * survive every growth.
 */
#include <stdint.h>
#include <stdlib.h>

#include "test.h"
#include "xp_arena.h"

static void test_reserve(void)
{
	int *a = NULL;
	size_t cap = 0, n = 0, grows = 0, last_cap = 0, i, k;

	/* 10000 appends of 3 elements: capacity changes are few (doubling) */
	for (i = 0; i < 10000; i++) {
		CHECK_INT(xp_reserve(&a, &cap, n, 3, sizeof(*a)), 0);
		if (cap != last_cap) {
			grows++;
			last_cap = cap;
		}
		CHECK(cap >= n + 3);
		for (k = 0; k < 3; k++)
			a[n++] = (int)(i * 3 + k);
	}
	CHECK(grows <= 20);	/* 2^14 > 30000: about 14 doublings after the first */
	for (i = 0; i < n; i++)
		if (a[i] != (int)i) {
			CHECK_INT(a[i], (int)i);
			break;
		}
	/* enough room: nothing changes */
	last_cap = cap;
	CHECK_INT(xp_reserve(&a, &cap, n, cap - n, sizeof(*a)), 0);
	CHECK_INT(cap, last_cap);
	/* a request past SIZE_MAX: refused, array and capacity as they were */
	{
		int *before = a;

		CHECK_INT(xp_reserve(&a, &cap, n, SIZE_MAX - n + 1, sizeof(*a)), -1);
		CHECK(a == before);
		CHECK_INT(cap, last_cap);
		CHECK_INT(xp_reserve(&a, &cap, n, SIZE_MAX / 2, sizeof(*a)), -1);
		CHECK(a == before);
	}
	/* a big first request is met exactly, not doubled from nothing */
	free(a);
	a = NULL;
	cap = 0;
	CHECK_INT(xp_reserve(&a, &cap, 0, 1000, sizeof(*a)), 0);
	CHECK_INT(cap, 1000);
	free(a);
}

static void test_grow(void)
{
	long *a = NULL;
	size_t cap = 0, n;

	for (n = 0; n < 1000; n++) {
		CHECK_INT(xp_grow(&a, &cap, n, sizeof(*a), 4), 0);
		CHECK(cap > n);
		a[n] = (long)n;
	}
	CHECK_INT(cap, 1024);	/* 4, 8, ..., 1024 */
	CHECK_INT(a[999], 999);
	free(a);
}

int main(void)
{
	test_reserve();
	test_grow();
	return test_done("grow");
}
