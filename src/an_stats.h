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

/* Two-sided p-value of Welch's t-test for equal means; 1 when it cannot be computed. */
double an_welch_p(const struct an_summary *a, const struct an_summary *b);

/* Quantile of Student's t distribution with df degrees of freedom (df > 0, 0 < p < 1). */
double an_t_quantile(double p, double df);
/* Its cumulative distribution function. */
double an_t_cdf(double t, double df);

#endif
