/* SPDX-License-Identifier: Apache-2.0 */
/*
 * an_group (runs of several hosts) and an_diff_group: which profiles are one
 * run, by hand; the notes for an ambiguous directory and a run missing a
 * host; a grouped run's sample is the mean over all its profiles' values,
 * weighted by their counts where they are means.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_diff.h"
#include "an_group.h"
#include "test.h"

/* Groups in (n) as by says; checks the runs against want and the note count. */
static void check_groups(const struct an_group_in *in, size_t n, enum an_run_by by, const size_t *want,
			 size_t nruns, size_t max_hosts, size_t notes_want)
{
	struct an_groups g;
	struct xp_notes notes = {0};
	size_t i;

	CHECK_INT(an_group_runs(in, n, by, &g, &notes), 0);
	CHECK_INT(g.nruns, nruns);
	CHECK_INT(g.max_hosts, max_hosts);
	for (i = 0; i < n; i++)
		CHECK_INT(g.run[i], want[i]);
	CHECK_INT(notes.n, notes_want);
	an_groups_release(&g);
	xp_notes_release(&notes);
}

static void test_sessions(void)
{
	/* two session directories of two hosts (files named after them), and a profile with no directory */
	static const struct an_group_in s[] = {
		{"s1/host-a.xplane.pb", "s1", "host-a"}, {"s1/host-b.xplane.pb.gz", "s1", "host-b"},
		{"s2/host-a.xplane.pb", "s2", "host-a"}, {"s2/host-b.xplane.pb", "s2", "host-b"},
		{"host-a.xplane.pb", NULL, "host-a"},
	};
	/* one host's rounds; rounds of fresh machines (each its own host, the files not named after them) */
	static const struct an_group_in rounds[] = {
		{"r/0.xplane.pb", "r", "h"}, {"r/1.xplane.pb", "r", "h"}, {"r/2.xplane.pb", "r", "h"},
	};
	static const struct an_group_in nameless[] = {
		{"r/round0.xplane.pb", "r", "pod-1"}, {"r/round1.xplane.pb", "r", ""},
	};
	/* two named after their hosts, one not: ambiguous; a name that only begins with the host's is not it */
	static const struct an_group_in mixed[] = {
		{"m/host-a.xplane.pb", "m", "host-a"}, {"m/host-b.xplane.pb", "m", "host-b"},
		{"m/host-a2.xplane.pb", "m", "host-a"},
	};
	/* a session's files apart in the walk (a subdirectory between them), and a run missing a host */
	static const struct an_group_in apart[] = {
		{"s/host-a.xplane.pb", "s", "host-a"}, {"s/t/host-a.xplane.pb", "s/t", "host-a"},
		{"s/host-b.xplane.pb", "s", "host-b"}, {"s/t/host-b.xplane.pb", "s/t", "host-b"},
		{"u/host-a.xplane.pb", "u", "host-a"},
	};

	check_groups(s, 5, AN_RUN_BY_AUTO, (const size_t[]){0, 0, 1, 1, 2}, 3, 2, 0);
	check_groups(s, 5, AN_RUN_BY_FILE, (const size_t[]){0, 1, 2, 3, 4}, 5, 1, 0);
	check_groups(s, 5, AN_RUN_BY_DIR, (const size_t[]){0, 0, 1, 1, 2}, 3, 2, 0);
	check_groups(rounds, 3, AN_RUN_BY_AUTO, (const size_t[]){0, 1, 2}, 3, 1, 0);
	check_groups(rounds, 3, AN_RUN_BY_DIR, (const size_t[]){0, 0, 0}, 1, 3, 0);
	check_groups(nameless, 2, AN_RUN_BY_AUTO, (const size_t[]){0, 1}, 2, 1, 0);
	check_groups(nameless, 2, AN_RUN_BY_DIR, (const size_t[]){0, 0}, 1, 2, 0);
	check_groups(mixed, 3, AN_RUN_BY_AUTO, (const size_t[]){0, 1, 2}, 3, 1, 1);
	check_groups(mixed, 3, AN_RUN_BY_DIR, (const size_t[]){0, 0, 0}, 1, 3, 0);
	/* u is one host where the runs of s and s/t have two: noted */
	check_groups(apart, 5, AN_RUN_BY_AUTO, (const size_t[]){0, 1, 0, 1, 2}, 3, 2, 1);
	check_groups(apart, 0, AN_RUN_BY_AUTO, NULL, 0, 0, 0);
}

/* One execution of f of dur ps. */
static void one_exec(struct an_exec_list *l, struct an_exec *x, int64_t dur)
{
	memset(l, 0, sizeof(*l));
	memset(x, 0, sizeof(*x));
	x->name = "f";
	x->busy_ps = dur;
	x->span_ps = dur;
	l->execs = x;
	l->n = 1;
}

static void test_diff_group(void)
{
	/* base: runs (1, 3) and (2, 4) by profile, as grouped {0, 1, 0, 1}: means 2 and 3 */
	static const int64_t base[4] = {1000, 2000, 3000, 4000};
	static const size_t run[4] = {0, 1, 0, 1};
	struct an_diff_opts o = {.level = AN_DIFF_FUNCTIONS, .alpha = 0.05};
	struct an_diff_result r;
	struct xp_err err = {0};
	const double *v;
	size_t i, n;

	an_diff_init(&r, &o);
	for (i = 0; i < 4; i++) {
		struct an_exec_list l;
		struct an_exec x;

		one_exec(&l, &x, base[i]);
		CHECK_INT(an_diff_add(&r, 0, &l, &err), 0);
	}
	an_diff_group(&r, 0, 0, run, 4, 2);
	CHECK_INT(r.runs[0], 2);
	/* current: two runs of kernels' means with counts: (10 x 1, 30 x 3) and (5 x 1) */
	an_diff_begin_run(&r, 1);
	CHECK_INT(an_diff_add_mean(&r, 1, "f", 10000, 1), 0);
	CHECK_INT(an_diff_add_mean(&r, 1, "f", 30000, 3), 0);
	an_diff_begin_run(&r, 1);
	CHECK_INT(an_diff_add_mean(&r, 1, "f", 5000, 1), 0);
	CHECK_INT(an_diff_finish(&r, &err), 0);
	CHECK_INT(r.nrows, 1);
	CHECK_INT(r.executions, 0);
	v = an_diff_samples(&r.rows[0].base, &n);
	CHECK_INT(n, 2);
	CHECK(n == 2 && fabs(v[0] - 2000) < 1e-9 && fabs(v[1] - 3000) < 1e-9);
	v = an_diff_samples(&r.rows[0].cur, &n);
	CHECK_INT(n, 2);
	/* (10000 + 3 * 30000) / 4 = 25000; 5000 */
	CHECK(n == 2 && fabs(v[0] - 5000) < 1e-9 && fabs(v[1] - 25000) < 1e-9);
	an_diff_release(&r);
}

int main(void)
{
	test_sessions();
	test_diff_group();
	return test_done("group");
}
