/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stragglers (an_straggle.h) on the synthetic trace worked by hand
 * (tests/synth/EXPECTED.md 5d): TPU:2 ends last in each of 3 groups, 4 us
 * after the first; TPU:1's plane clock 1 us later makes it 1 us late; a
 * function run unequally often is left out; the input twice doubles the
 * groups and keeps the means.
 */
#include <stdlib.h>
#include <string.h>

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

/* An execution of name (program 1) on device dev, from start_us for dur_us. */
static struct an_exec ex(uint32_t dev, const char *name, int64_t start_us, int64_t dur_us)
{
	struct an_exec x = {.device = dev, .name = name, .program_id = 1, .has_program_id = 1};

	x.start_ps = (int64_t)US(start_us);
	x.span_ps = x.busy_ps = (int64_t)US(dur_us);
	return x;
}

/*
 * By hand, without a trace: a name made to sort among another function's
 * executions ("a" then a separator and a number) cannot join them; device
 * planes too far apart for int64 picoseconds are refused, not rounded.
 */
static void hostile(void)
{
	static const char *const sly = "a\x1f\x1f" "00000000000000000000";
	struct xp_plane planes[2] = {{.name = "/device:TPU:0"}, {.name = "/device:TPU:1"}};
	struct xp_trace t = {.planes = planes, .nplanes = 2};
	struct an_device devs[2] = {{.plane = 0, .name = "/device:TPU:0"}, {.plane = 1, .name = "/device:TPU:1"}};
	/* "a" twice on TPU:0, once on TPU:1 (left out); sly twice on each (two groups, TPU:1 last) */
	struct an_exec x[7];
	struct an_exec_list l = {.execs = x, .n = 7, .devices = devs, .ndevices = 2, .hostname = ""};
	struct an_strag_result r;
	struct xp_err err = {0};

	x[0] = ex(0, "a", 0, 10);
	x[1] = ex(0, "a", 100, 10);
	x[2] = ex(1, "a", 0, 10);
	x[3] = ex(0, sly, 200, 10);
	x[4] = ex(0, sly, 300, 10);
	x[5] = ex(1, sly, 200, 12);
	x[6] = ex(1, sly, 300, 12);
	an_strag_init(&r);
	CHECK_INT(an_strag_add(&r, &t, &l, &err), 0);
	CHECK_INT(an_strag_finish(&r, &err), 0);
	CHECK_INT(r.groups, 2);
	CHECK_INT(r.unmatched, 1);
	if (r.n == 2) {
		CHECK_STR(r.devices[0].name, "/device:TPU:1");
		CHECK_INT(r.devices[0].last, 2);
		CHECK(r.devices[0].late_ps == 2 * US(2));
	}
	an_strag_release(&r);
	/* TPU:1's clock 9e18 ns on: its ends past int64 picoseconds */
	planes[1].base_ns = 9000000000000000000;
	an_strag_init(&r);
	CHECK_INT(an_strag_add(&r, &t, &l, &err), XP_ERR_LIMIT);
	CHECK(strstr(err.msg, "too far apart") != NULL);
	CHECK_INT(r.groups, 0);
	an_strag_release(&r);
}

/*
 * Hosts by hand: h1 and h2 (a session directory s/, each file named after
 * its host: one run) ran f twice on one device, 10 then 20 us on h1, 12
 * then 18 on h2: a group each, each host once the slowest by 2 us (so
 * neither is named); g ran on h1 alone: left out. h3 in another directory
 * (a run of its own) is not compared. Two devices of h2 running f 12 and
 * 15 us: the host's time is the longer. Given with run_by file: no run of
 * several hosts.
 */
static void hosts(void)
{
	struct xp_plane planes[2] = {{.name = "/device:TPU:0"}, {.name = "/device:TPU:1"}};
	struct xp_trace t = {.planes = planes, .nplanes = 2};
	struct an_device devs[2] = {{.plane = 0, .name = "/device:TPU:0"}, {.plane = 1, .name = "/device:TPU:1"}};
	struct an_exec a[3], b[4], c[1];
	struct an_exec_list la = {.execs = a, .n = 3, .devices = devs, .ndevices = 1, .hostname = "h1"};
	struct an_exec_list lb = {.execs = b, .n = 4, .devices = devs, .ndevices = 2, .hostname = "h2"};
	struct an_exec_list lc = {.execs = c, .n = 1, .devices = devs, .ndevices = 1, .hostname = "h3"};
	struct an_strag_result r;
	struct xp_err err = {0};
	int by;

	a[0] = ex(0, "f", 0, 10);
	a[1] = ex(0, "f", 100, 20);
	a[2] = ex(0, "g", 200, 5);
	b[0] = ex(0, "f", 0, 12);
	b[1] = ex(0, "f", 100, 18);
	b[2] = ex(1, "f", 0, 11);
	b[3] = ex(1, "f", 100, 15);
	c[0] = ex(0, "f", 0, 99);
	for (by = 0; by < 3; by += 2) {	/* AN_RUN_BY_AUTO, AN_RUN_BY_FILE */
		an_strag_init(&r);
		r.run_by = by;
		CHECK_INT(an_strag_add_input(&r, &t, &la, "s/h1.xplane.pb", &err), 0);
		CHECK_INT(an_strag_add_input(&r, &t, &lb, "s/h2.xplane.pb", &err), 0);
		CHECK_INT(an_strag_add_input(&r, &t, &lc, "other/h3.xplane.pb", &err), 0);
		CHECK_INT(an_strag_finish(&r, &err), 0);
		if (by) {
			CHECK_INT(r.host_groups, 0);
			CHECK_INT(r.nhost_rows, 0);
			an_strag_release(&r);
			continue;
		}
		CHECK_INT(r.host_runs, 1);
		CHECK_INT(r.host_groups, 2);
		CHECK_INT(r.host_unmatched, 1);
		CHECK_INT(r.nhost_rows, 2);
		CHECK(an_strag_slowest_host(&r) == NULL);
		if (r.nhost_rows == 2) {
			/* equal slow per group: by name */
			CHECK_STR(r.host_rows[0].name, "h1");
			CHECK_STR(r.host_rows[1].name, "h2");
			CHECK_INT(r.host_rows[0].groups, 2);
			CHECK_INT(r.host_rows[0].slowest, 1);
			CHECK_INT(r.host_rows[1].slowest, 1);
			CHECK(r.host_rows[0].slow_ps == US(2));
			CHECK(r.host_rows[1].slow_ps == US(2));
		}
		an_strag_release(&r);
	}
	/* u run unequally often by the devices of each host: left out of the hosts, and counted */
	{
		struct an_exec ua[3], ub[3];
		struct an_exec_list lua = {.execs = ua, .n = 3, .devices = devs, .ndevices = 2, .hostname = "h1"};
		struct an_exec_list lub = {.execs = ub, .n = 3, .devices = devs, .ndevices = 2, .hostname = "h2"};

		ua[0] = ub[0] = ex(0, "u", 0, 10);
		ua[1] = ub[1] = ex(0, "u", 100, 10);
		ua[2] = ub[2] = ex(1, "u", 0, 10);
		an_strag_init(&r);
		CHECK_INT(an_strag_add_input(&r, &t, &lua, "s/h1.xplane.pb", &err), 0);
		CHECK_INT(an_strag_add_input(&r, &t, &lub, "s/h2.xplane.pb", &err), 0);
		CHECK_INT(an_strag_finish(&r, &err), 0);
		CHECK_INT(r.host_groups, 0);
		CHECK_INT(r.host_unmatched, 1);
		an_strag_release(&r);
	}
	/* a file named as another input's host (x.xplane.pb and host-a.xplane.pb.gz both of host-b): rows apart */
	{
		struct an_exec_list l1 = la, l2 = la, l3 = la;

		l1.hostname = "host-a";
		l2.hostname = l3.hostname = "host-b";
		an_strag_init(&r);
		r.run_by = 1;	/* AN_RUN_BY_DIR */
		CHECK_INT(an_strag_add_input(&r, &t, &l1, "d/host-a.xplane.pb", &err), 0);
		CHECK_INT(an_strag_add_input(&r, &t, &l2, "d/x.xplane.pb", &err), 0);
		CHECK_INT(an_strag_add_input(&r, &t, &l3, "d/host-a.xplane.pb.gz", &err), 0);
		CHECK_INT(an_strag_finish(&r, &err), 0);
		CHECK_INT(r.nhost_rows, 3);	/* host-a, x, host-a.xplane.pb: one row each */
		CHECK_INT(r.host_groups, 3);	/* f twice and g once, on all three */
		for (by = 0; (size_t)by < r.nhost_rows; by++)
			CHECK_INT(r.host_rows[by].groups, 3);
		an_strag_release(&r);
	}
	/* h2 slower the second time too: named */
	b[1] = ex(0, "f", 100, 21);
	an_strag_init(&r);
	CHECK_INT(an_strag_add_input(&r, &t, &la, "s/h1.xplane.pb", &err), 0);
	CHECK_INT(an_strag_add_input(&r, &t, &lb, "s/h2.xplane.pb", &err), 0);
	CHECK_INT(an_strag_finish(&r, &err), 0);
	CHECK(an_strag_slowest_host(&r) != NULL && !strcmp(an_strag_slowest_host(&r)->name, "h2"));
	if (r.nhost_rows == 2)
		CHECK(r.host_rows[0].slow_ps == US(2) + US(1));
	an_strag_release(&r);
}

int main(void)
{
	hostile();
	hosts();
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
