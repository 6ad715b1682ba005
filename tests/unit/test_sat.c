/* SPDX-License-Identifier: Apache-2.0 */
/* Saturating sums (xp_sat.h) at the ends of their ranges. */
#include "test.h"
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

int main(void)
{
	helpers();
	return test_done("test_sat");
}
