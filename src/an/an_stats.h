/* SPDX-License-Identifier: Apache-2.0 */
/* Sample statistics: trimmed mean, population std, median, t-based intervals. */
#ifndef AN_STATS_H
#define AN_STATS_H

#include <stddef.h>
#include <stdint.h>

struct an_summary {
	size_t n;		/* samples */
	size_t n_used;		/* after trimming: what mean, std and the interval use */
	size_t trimmed;		/* dropped from each end */
	double total;		/* sum of all samples (untrimmed) */
	double mean, std;	/* of the used samples; std is the population one (ddof=0) */
	double sample_std;	/* ddof=1 of the used samples, 0 when n_used < 2 */
	double min, median, max;	/* of all samples */
	double ci_lo, ci_hi;	/* 95% Student-t interval of the mean; mean when n_used < 2 */
};

/*
 * Summarises n samples (sorted in place). Trim k drops the k smallest and k
 * largest when n > 2k; otherwise nothing is dropped. Returns -1 when n == 0.
 */
int an_summarize(double *samples, size_t n, size_t trim, struct an_summary *out);

/*
 * Means per run, in place: n values v of runs run[i] (weights w, NULL: all
 * 1), in any order, become the runs' weighted means in v[0..*nruns) and
 * their runs in run[0..*nruns), by run (a run's values summed in the order
 * they came). 0, or -1 when out of memory (v and run as they were).
 */
int an_run_means(double *v, const double *w, size_t *run, size_t n, size_t *nruns);

/* Welch's t test for equal means, two-sided. */
struct an_welch {
	int tested;		/* 0: fewer than 2 used samples on a side; p = 1, the rest 0 */
	double t, df;		/* t = +-inf when neither side has spread and the means differ */
	/*
	 * The p-value, computed as a tail directly (never 1 - cdf), exact to a
	 * few ulps down to DBL_MIN; 0 only when it is below DBL_MIN, where
	 * log10_p still gives it (-inf when it is exactly 0: t infinite).
	 */
	double p, log10_p;
};
void an_welch(const struct an_summary *a, const struct an_summary *b, struct an_welch *w);
/* an_welch's p; 1 when it cannot be computed. */
double an_welch_p(const struct an_summary *a, const struct an_summary *b);

/* Quantile of Student's t distribution with df degrees of freedom (df > 0, 0 < p < 1). */
double an_t_quantile(double p, double df);
/* Its cumulative distribution function, as the upper tail of -t. */
double an_t_cdf(double t, double df);
/*
 * Its upper tail P(T > t), computed directly (regularised incomplete beta by
 * a continued fraction), and the tail's natural log, which stays exact where
 * the tail itself is below the smallest double (an_t_sf then gives 0).
 */
double an_t_sf(double t, double df);
double an_t_log_sf(double t, double df);

#endif
