/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Comparing two sets of runs (base and current): per row (a function and
 * program, or an autotune candidate) the samples of each side, the change of
 * the mean as a ratio with a 95% interval, a Mann-Whitney U test and Welch's
 * t test, and a verdict.
 *
 * Samples: when each side is one run, the row's executions in it; else, on
 * both sides, the row's mean execution time in each run that has it (runs
 * are the unit that repeats; executions inside one run are not independent
 * of each other, and executions against run means would take one side's
 * run-to-run variance for none). A run may be several inputs (the hosts of
 * one session, an_group.h): its mean is over all their executions.
 *
 * The ratio's interval is the delta method on the log of the ratio of means
 * (standard errors from each side's sample std, ddof 1) with Student's t at
 * Welch-Satterthwaite degrees of freedom; none when a side has fewer than
 * two samples. The U test is two-sided, exact (no ties, each side at most
 * AN_MWU_EXACT_MAX samples) or else the normal approximation with the tie
 * correction and a continuity correction of 0.5, as SciPy's mannwhitneyu
 * ('auto'), which google/benchmark's compare.py uses.
 *
 * Verdict: new (no base samples), gone (no current ones), too few samples
 * (even complete separation could not give an exact p below alpha:
 * 2 / C(n1 + n2, n1) >= alpha), slower or faster (U test p < alpha, by the
 * ratio), else same.
 *
 * Ownership: a result owns its rows, keys and samples; an_diff_release frees them.
 */
#ifndef AN_DIFF_H
#define AN_DIFF_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "an_exec.h"
#include "an_functions.h"
#include "xp_err.h"
#include "xp_hmap.h"

#define AN_MWU_EXACT_MAX 50

enum an_diff_level { AN_DIFF_FUNCTIONS, AN_DIFF_AUTOTUNE, AN_DIFF_KERNELS, AN_DIFF_OPS };

enum an_verdict { AN_V_SAME, AN_V_FASTER, AN_V_SLOWER, AN_V_NEW, AN_V_GONE, AN_V_FEW };

/* "same", "faster", "slower", "new", "gone", "too few samples". */
const char *an_verdict_name(enum an_verdict v);

/* The default of an_diff_opts.min_effect_pct in the commands (--min-effect). */
#define AN_DIFF_MIN_EFFECT_PCT 1.0

struct an_diff_opts {
	enum an_diff_level level;
	enum an_time time;
	const regex_t *match;	/* functions level: on names; NULL all */
	const regex_t *id_re;	/* autotune level: group 1 is the candidate id */
	double alpha;		/* 0.05 */
	/*
	 * A change of the mean under min_effect_pct percent is "same", however
	 * significant (0: any); with holm, the rows' U p-values are corrected
	 * for multiple comparisons (Holm's step-down) before the verdicts and
	 * the gate read them.
	 */
	double min_effect_pct;
	int holm;
};

struct an_diff_side {
	size_t n;		/* samples */
	size_t runs;		/* runs that have the row */
	double mean, median, min, max, p95, std;	/* picoseconds; std ddof 1 (0 when n < 2) */
	/* private: (run, value) pairs while adding; then the samples */
	double *v_;
	size_t *run_;
	double *w_;		/* the values' weights (an_diff_add_mean's counts); NULL: all 1 */
	size_t nv_, cap_, run_cap_, w_cap_;
};

struct an_diff_row {
	char *key;		/* "name" or "name(program)"; the candidate id */
	char *name;		/* functions: the function name; autotune: NULL */
	uint64_t program_id;
	int has_program_id;
	struct an_diff_side base, cur;
	double change;		/* current mean / base mean; NAN for new and gone */
	double ci_lo, ci_hi;	/* its 95% interval; NAN when none */
	double p_u, p_welch;	/* NAN when a side has no samples */
	double p_adj;		/* p_u after the correction (opts.holm; else p_u); NAN when untested */
	double log_min_p;	/* the smallest p its sample sizes allow (complete separation), log */
	int exact;		/* p_u from the exact distribution */
	double p95_change;	/* current p95 / base p95; NAN when not both */
	enum an_verdict verdict;
	int approximate;	/* some samples are a sketch's bucket values (an_diff_approximate) */
	double delta;		/* current mean - base mean (a gone row: - base mean), ps */
	int gated;		/* an_diff_gate: 1 slower beyond --gate, 2 p95 beyond --gate-p95, 3 both */
};

struct an_diff_result {
	struct an_diff_opts opts;
	struct an_diff_row *rows;	/* after finish: by |delta|, largest first */
	size_t nrows, cap;
	size_t runs[2];		/* runs added per side (0 base, 1 current) */
	size_t profiles[2];	/* profiles in them, when grouped (an_diff_group); else 0 */
	int executions;		/* after finish: the samples are executions (one run each side) */
	size_t tested;		/* after finish: rows with a test (not new, gone or too few samples) */
	size_t verdicts[AN_V_FEW + 1];
	/* private */
	int means_;		/* some values are means (an_diff_add_mean): never executions */
	struct xp_hmap by_key_;
};

void an_diff_init(struct an_diff_result *r, const struct an_diff_opts *o);
/* Adds one run's executions to side 0 (base) or 1 (current). */
int an_diff_add(struct an_diff_result *r, int side, const struct an_exec_list *l, struct xp_err *err);
/*
 * For rows of other analyses (kernels, ops): an_diff_begin_run starts a run
 * on a side; an_diff_add_value adds one value (ps) of row key to it (a
 * weight of k: the value k times, as a sketch's bucket gives it).
 */
void an_diff_begin_run(struct an_diff_result *r, int side);
int an_diff_add_value(struct an_diff_result *r, int side, const char *key, double ps, size_t weight);
/*
 * Adds to the side's current run the mean ps of count instances of key (a
 * run's mean is then weighted by the counts of its values). A result with
 * such values takes run means as samples even with one run a side.
 */
int an_diff_add_mean(struct an_diff_result *r, int side, const char *key, double ps, double count);
/*
 * Runs of several inputs: the side's runs first .. first + n - 1 (one per
 * input, as added) become first + run[i], nruns of them; each run's sample
 * is then the mean over all its inputs' values. Call before an_diff_finish.
 */
void an_diff_group(struct an_diff_result *r, int side, size_t first, const size_t *run, size_t n, size_t nruns);
/*
 * Marks key's row: some of its samples are a sketch's bucket values, not
 * the instances; finishing puts all its samples on the sketch's buckets.
 */
int an_diff_approximate(struct an_diff_result *r, const char *key);
/* Computes samples, statistics, tests and verdicts, and sorts. */
int an_diff_finish(struct an_diff_result *r, struct xp_err *err);
void an_diff_release(struct an_diff_result *r);
/*
 * The CI gate: marks the rows slower (U test p < alpha) by more than pct
 * percent in the mean, or (p95_pct >= 0) by more than p95_pct percent in the
 * 95th percentile of the samples; a negative pct turns that test off.
 * Returns how many rows it marked.
 */
size_t an_diff_gate(struct an_diff_result *r, double pct, double p95_pct);
/* The samples a side's statistics came from (after finish), ascending. */
const double *an_diff_samples(const struct an_diff_side *s, size_t *n);

/* Two-sided Mann-Whitney U test of a (n) against b (m); *exact says which way it was computed. */
double an_mwu_p(const double *a, size_t n, const double *b, size_t m, int *exact);

#endif
