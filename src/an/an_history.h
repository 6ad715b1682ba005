/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A history file's trend: its runs grouped by what made them (one analysis
 * command with --history: commit, dirty flag, run number, time, host and
 * options), the groups in the order they were recorded (by time, then
 * commit and run number: a merged file has its lines in another order); per row (an_diff's rows: functions or
 * autotune candidates) its mean in each group (an_diff's samples: a
 * group's executions when its profiles are one run, else its runs' means:
 * the profiles of a session's hosts are one run, as an_group_runs groups
 * them from their recorded paths and hostnames);
 * and the latest group compared with a baseline group by an_diff.
 *
 * Baseline, among the groups recorded with the latest's options (others
 * would compare other executions; they are counted in other_options): the
 * first group of --baseline's commit when given (a prefix naming several
 * commits is refused); else the first group of the latest's commit; when
 * the latest is that first group itself, the first group of the commit
 * recorded before it (baseline_why says which).
 *
 * Ownership: a result owns everything in it; an_hist_release frees it.
 */
#ifndef AN_HISTORY_H
#define AN_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "an_diff.h"
#include "an_group.h"
#include "an_run.h"

/* The runs one command with --history recorded: same commit, run number, time, host and options. */
struct an_hist_group {
	const char *commit;	/* the first run's (owned by the runs given) */
	int dirty;
	uint64_t run;
	int64_t time;
	size_t nprofiles;
	size_t nruns;		/* the runs its profiles form (a session's hosts are one) */
	int comparable;		/* recorded with the latest group's options (--device, --children, --min-duration) */
	/* private */
	const struct an_run *first_;
	size_t order_;
};

enum an_hist_base {
	AN_HB_NONE,		/* a single commit with a single group: nothing to compare */
	AN_HB_SAME_COMMIT,	/* the first run of the latest's commit */
	AN_HB_PREVIOUS_COMMIT,	/* the latest is its commit's first: the commit before */
	AN_HB_ASKED,		/* --baseline */
};

struct an_hist_row {
	char *key;
	double *means;		/* per group, ps; NAN where the group lacks the row */
};

struct an_hist_result {
	struct an_hist_group *groups;
	size_t ngroups;
	struct an_hist_row *rows;	/* by key's first appearance */
	size_t nrows;
	size_t latest, baseline;	/* group indexes; baseline valid unless AN_HB_NONE */
	enum an_hist_base base_why;
	struct an_diff_result diff;	/* baseline (base) against latest (current) */
	size_t runs_without_history;	/* lines without a history block: left out */
	size_t other_options;		/* groups recorded with other options than the latest */
};

/*
 * Computes the trend of n runs (their executions are read, not taken); by:
 * which of a group's profiles are one run (an_group.h).
 * baseline: a commit (a prefix of the recorded short hash, '+' for a dirty
 * tree), NULL for the default. 0; XP_ERR_USAGE when the baseline commit is
 * not in the file or no run has history; XP_ERR_NOMEM.
 */
int an_hist_compute(const struct an_run *runs, size_t n, const struct an_diff_opts *o, enum an_run_by by,
		    const char *baseline, struct an_hist_result *r, struct xp_err *err);
void an_hist_release(struct an_hist_result *r);

#endif
