/* SPDX-License-Identifier: Apache-2.0 */
/* xp_pool: every item worked once, results consumed in order on any thread count; arena adoption. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "test.h"
#include "xp_arena.h"
#include "xp_pool.h"

struct order {
	size_t n, next_expected, out_of_order, wrong;
	unsigned *worked;	/* times work(i) ran */
};

static void *work(size_t i, void *ctx)
{
	struct order *o = ctx;
	size_t *r = malloc(sizeof(*r));

	/* Uneven work, so that later items often finish before earlier ones. */
	if (i % 7 == 0) {
		struct timespec ts = {0, 200000};

		nanosleep(&ts, NULL);
	}
	__atomic_fetch_add(&o->worked[i], 1, __ATOMIC_RELAXED);
	if (r)
		*r = i * i + 3;
	return r;
}

static void done(size_t i, void *result, void *ctx)
{
	struct order *o = ctx;
	size_t *r = result;

	if (i != o->next_expected)
		o->out_of_order++;
	o->next_expected = i + 1;
	if (!r || *r != i * i + 3)
		o->wrong++;
	free(r);
}

static void test_order(size_t n, unsigned jobs)
{
	struct order o = {.n = n};
	size_t i, bad = 0;

	o.worked = calloc(n + 1, sizeof(*o.worked));
	CHECK(xp_pool_run(n, jobs, work, done, &o) >= 1);
	CHECK_INT(o.next_expected, n);
	CHECK_INT(o.out_of_order, 0);
	CHECK_INT(o.wrong, 0);
	for (i = 0; i < n; i++)
		bad += o.worked[i] != 1;
	CHECK_INT(bad, 0);
	free(o.worked);
}

static void test_arena_adopt(void)
{
	struct xp_arena a, b;
	char *x, *y, *big;

	xp_arena_init(&a);
	xp_arena_init(&b);
	x = xp_arena_strndup(&a, "abc", 3);
	y = xp_arena_strndup(&b, "defg", 4);
	big = xp_arena_alloc(&b, 1 << 20);
	CHECK(big && big[0] == 0 && big[(1 << 20) - 1] == 0);
	size_t used = a.used_bytes + b.used_bytes;

	xp_arena_adopt(&a, &b);
	CHECK_INT(a.used_bytes, used);
	CHECK(b.head == NULL);
	CHECK_INT(b.used_bytes, 0);
	CHECK_STR(x, "abc");
	CHECK_STR(y, "defg");
	/* a keeps its own free space: the next small string lands in its first block. */
	CHECK(xp_arena_strndup(&a, "h", 1) == x + sizeof(max_align_t));
	xp_arena_release(&a);	/* frees b's blocks too (valgrind/ASan would say otherwise) */
}

int main(void)
{
	test_order(0, 4);
	test_order(1, 4);
	test_order(100, 1);
	test_order(1000, 2);
	test_order(1000, 3);
	test_order(37, 64);
	test_arena_adopt();
	return test_done("test_pool");
}
