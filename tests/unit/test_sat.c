/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Saturating sums (xp_sat.h) at the ends of their ranges, and a pooled busy
 * time past 2^63-1 ps held there, never wrapped to a negative one (issue 29:
 * three inputs each busy 2^62 ps printed "device busy -4611686.018 s").
 */
#include <stdlib.h>

#include "an_functions.h"
#include "an_notes.h"
#include "test.h"
#include "xp_arena.h"
#include "xp_sat.h"

static void helpers(void)
{
	int64_t acc;
	uint64_t u;

	CHECK_INT(xp_sat_add(INT64_MAX, 1), INT64_MAX);
	CHECK_INT(xp_sat_add(INT64_MAX, INT64_MAX), INT64_MAX);
	CHECK_INT(xp_sat_add(INT64_MIN, -1), INT64_MIN);
	CHECK_INT(xp_sat_add(INT64_MIN, INT64_MIN), INT64_MIN);
	CHECK_INT(xp_sat_add(INT64_MAX, INT64_MIN), -1);
	CHECK_INT(xp_sat_add(INT64_MAX - 1, 1), INT64_MAX);
	CHECK_INT(xp_sat_add(-5, 3), -2);
	CHECK_INT(xp_sat_sub(INT64_MAX, -1), INT64_MAX);
	CHECK_INT(xp_sat_sub(INT64_MAX, INT64_MIN), INT64_MAX);
	CHECK_INT(xp_sat_sub(INT64_MIN, 1), INT64_MIN);
	CHECK_INT(xp_sat_sub(INT64_MIN, INT64_MAX), INT64_MIN);
	CHECK_INT(xp_sat_sub(-1, INT64_MIN), INT64_MAX);
	CHECK_INT(xp_sat_sub(0, INT64_MIN + 1), INT64_MAX);
	CHECK_INT(xp_sat_sub(7, 9), -2);
	CHECK(xp_sat_add_u64(UINT64_MAX, 1) == UINT64_MAX);
	CHECK(xp_sat_add_u64(UINT64_MAX - 1, 1) == UINT64_MAX);
	CHECK(xp_sat_add_u64(UINT64_C(1) << 63, UINT64_C(1) << 63) == UINT64_MAX);
	CHECK(xp_sat_add_u64(2, 3) == 5);
	CHECK(xp_sat_sub_u64(0, 1) == 0);
	CHECK(xp_sat_sub_u64(UINT64_MAX, UINT64_MAX) == 0);
	CHECK(xp_sat_sub_u64(5, 3) == 2);
	/* the _to forms say when they held the sum, and hold it for good */
	acc = INT64_MAX - 2;
	CHECK_INT(xp_sat_add_to(&acc, 2), 0);
	CHECK_INT(acc, INT64_MAX);
	CHECK_INT(xp_sat_add_to(&acc, 1), 1);
	CHECK_INT(acc, INT64_MAX);
	acc = INT64_MIN + 1;
	CHECK_INT(xp_sat_add_to(&acc, -2), 1);
	CHECK_INT(acc, INT64_MIN);
	u = UINT64_MAX - 1;
	CHECK_INT(xp_sat_add_to_u64(&u, 1), 0);
	CHECK(u == UINT64_MAX);
	CHECK_INT(xp_sat_add_to_u64(&u, 1), 1);
	CHECK(u == UINT64_MAX);
}

/* An input of one device plane busy busy_ps, with one execution. */
static void one_input(struct an_exec_list *l, struct an_device *dev, struct an_exec *x, const char *host,
		      int64_t busy_ps)
{
	memset(l, 0, sizeof(*l));
	xp_arena_init(&l->arena);
	*dev = (struct an_device){.name = "/device:GPU:0", .busy_ps = busy_ps, .events = 1,
				  .unattributed_busy_ps = busy_ps / 2};
	*x = (struct an_exec){.device = 0, .name = "jit_f", .split = AN_SPLIT_HOST, .busy_ps = busy_ps,
			      .span_ps = busy_ps, .events = 1};
	l->hostname = host;
	l->devices = dev;
	l->ndevices = 1;
	l->execs = x;
	l->n = l->cap = 1;
}

/* Three inputs (three hosts, so three devices) each busy 2^62 + 2^60 ps: the pooled busy passes 2^63-1. */
static void pooled_busy(void)
{
	static const char *const hosts[3] = {"host-a", "host-b", "host-c"};
	struct an_fn_opts o = {.time = AN_TIME_BUSY};
	struct an_fn_result r;
	struct xp_notes n = {0};
	struct xp_err err = {0};
	int64_t busy = (INT64_C(1) << 62) + (INT64_C(1) << 60);
	size_t i;

	an_fn_init(&r, &o);
	for (i = 0; i < 3; i++) {
		struct an_exec_list l;
		struct an_device dev;
		struct an_exec x;

		one_input(&l, &dev, &x, hosts[i], busy);
		CHECK_INT(an_fn_add(&r, &l, &err), 0);
	}
	CHECK_INT(an_fn_finish(&r, &err), 0);
	CHECK_INT(r.devices, 3);
	CHECK_INT(r.executions, 3);
	CHECK_INT(r.device_busy_ps, INT64_MAX);
	CHECK(r.device_busy_ps > 0);
	/* the unattributed halves sum to 1.875 * 2^62: no wrap, no saturation of their own */
	CHECK_INT(r.unattributed_busy_ps, 3 * (busy / 2));
	CHECK(r.busy_saturated);
	if (r.nrows == 1)
		CHECK(r.rows[0].share >= 0 && r.rows[0].share <= 1.0);
	/* and the result says so */
	CHECK_INT(an_fn_notes(&r, &n), 0);
	CHECK_INT(n.n, 1);
	if (n.n)
		CHECK(strstr(n.msgs[0], "passed 2^63-1 ps") != NULL);
	xp_notes_release(&n);
	an_fn_release(&r);

	/* two inputs fit: no note */
	an_fn_init(&r, &o);
	for (i = 0; i < 2; i++) {
		struct an_exec_list l;
		struct an_device dev;
		struct an_exec x;

		one_input(&l, &dev, &x, hosts[i], INT64_C(1) << 61);
		CHECK_INT(an_fn_add(&r, &l, &err), 0);
	}
	CHECK_INT(r.device_busy_ps, INT64_C(1) << 62);
	CHECK(!r.busy_saturated);
	CHECK_INT(an_fn_notes(&r, &n), 0);
	CHECK_INT(n.n, 0);
	xp_notes_release(&n);
	an_fn_release(&r);
}

int main(void)
{
	helpers();
	pooled_busy();
	return test_done("test_sat");
}
