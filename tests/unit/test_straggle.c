/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stragglers (an_straggle.h) on the synthetic trace worked by hand
 * (tests/synth/EXPECTED.md 5d): TPU:2 ends last in each of 3 groups, 4 us
 * after the first; TPU:1's plane clock 1 us later makes it 1 us late; a
 * function run unequally often is left out; the input twice doubles the
 * groups and keeps the means.
 */
#include <stdlib.h>

#include "an_exec.h"
#include "an_straggle.h"
#include "test.h"
#include "test_trace.h"

#define US(x) ((double)(x) * 1e6)

static void check_device(const struct an_strag_device *d, const char *name, size_t groups, size_t last,
			 double late, double waited, double slow)
{
	CHECK_STR(d->name, name);
	CHECK_INT(d->groups, groups);
	CHECK_INT(d->last, last);
	CHECK(d->late_ps == late * (double)groups);
	CHECK(d->waited_ps == waited * (double)groups);
	CHECK(d->slow_ps == slow * (double)groups);
}

int main(void)
{
	struct xp_trace *t = test_load(SYNTH_DIR "/stragglers.xplane.pb", NULL);
	struct an_exec_opts xo = {0};
	struct an_exec_list l;
	struct an_strag_result r;
	struct xp_err err = {0};
	int twice;

	if (!t)
		return test_done("straggle");
	CHECK_INT(an_exec_find(t, &xo, &l, &err), 0);
	for (twice = 1; twice <= 2; twice++) {
		int k;

		an_strag_init(&r);
		for (k = 0; k < twice; k++)
			CHECK_INT(an_strag_add(&r, t, &l, &err), 0);
		CHECK_INT(an_strag_finish(&r, &err), 0);
		CHECK_INT(r.groups, 3 * (size_t)twice);
		CHECK_INT(r.unmatched, (size_t)twice);
		CHECK_INT(r.hosts, 1);
		CHECK_INT(r.n, 3);
		if (r.n == 3) {
			check_device(&r.devices[0], "/device:TPU:2", 3 * (size_t)twice, 3 * (size_t)twice, US(4), 0, US(4));
			check_device(&r.devices[1], "/device:TPU:1", 3 * (size_t)twice, 0, US(1), US(3), 0);
			check_device(&r.devices[2], "/device:TPU:0", 3 * (size_t)twice, 0, 0, US(4), 0);
			CHECK_STR(r.devices[0].host, "host-s");
		}
		an_strag_release(&r);
	}
	an_exec_list_release(&l);
	xp_trace_free(t);
	return test_done("straggle");
}
