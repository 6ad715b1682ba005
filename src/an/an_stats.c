/* SPDX-License-Identifier: Apache-2.0 */
#include "an_stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xp_sort.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int an_summarize(double *s, size_t n, size_t trim, struct an_summary *o)
{
	long double sum = 0, m, ss = 0;
	size_t i, lo, hi;

	if (!n)
		return -1;
	if (xp_sort_doubles(s, n))
		qsort(s, n, sizeof(*s), cmp_double);	/* a NaN, or no room for the radix sort */
	for (i = 0; i < n; i++)
		sum += s[i];
	o->n = n;
	o->total = (double)sum;
	o->min = s[0];
	o->max = s[n - 1];
	o->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	o->trimmed = n > 2 * trim ? trim : 0;
	lo = o->trimmed;
	hi = n - o->trimmed;
	o->n_used = hi - lo;
	sum = 0;
	for (i = lo; i < hi; i++)
		sum += s[i];
	m = sum / (long double)o->n_used;
	for (i = lo; i < hi; i++)
		ss += ((long double)s[i] - m) * ((long double)s[i] - m);
	o->mean = (double)m;
	o->std = (double)sqrtl(ss / (long double)o->n_used);
	o->sample_std = o->n_used > 1 ? (double)sqrtl(ss / (long double)(o->n_used - 1)) : 0;
	o->ci_lo = o->ci_hi = o->mean;
	if (o->n_used > 1) {
		double half = an_t_quantile(0.975, (double)(o->n_used - 1)) * o->sample_std /
			      sqrt((double)o->n_used);

		o->ci_lo = o->mean - half;
		o->ci_hi = o->mean + half;
	}
	return 0;
}

/*
 * Continued fraction of the regularised incomplete beta function (modified
 * Lentz), for x below (a + 1) / (a + b + 2), where it converges quickly;
 * y is 1 - x.
 */
static double beta_cf(double a, double b, double x, double y)
{
	const double tiny = 1e-300;
	/* 1 - (a + b) x / (a + 1), from y = 1 - x without cancelling when a is large */
	double c = 1, d = ((a + 1) * y + (1 - b) * x) / (a + 1), h;
	int m;

	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-16)
			break;
	}
	return h;
}

/*
 * lgamma(a + b) - lgamma(a) without the cancellation of two huge lgammas
 * when a is large (Stirling's series; its next term is below 1e-15 for a >= 20).
 */
static double lgamma_ratio(double a, double b)
{
	double z[2] = {a + b, a}, s[2];
	int i;

	if (a < 20 || b > a)
		return lgamma(a + b) - lgamma(a);
	for (i = 0; i < 2; i++) {
		double r = 1 / z[i], r2 = r * r;

		s[i] = r * (1.0 / 12 - r2 * (1.0 / 360 - r2 * (1.0 / 1260 - r2 * (1.0 / 1680 - r2 / 1188))));
	}
	return (a - 0.5) * log1p(b / a) + b * log(a + b) - b + s[0] - s[1];
}

/* log erfc(x), also where erfc(x) is below the smallest double. */
static double log_erfc(double x)
{
	double x2, sum = 1, term = 1;
	int k;

	if (x < 26)
		return log(erfc(x));
	/* erfc(x) = exp(-x^2) / (x sqrt(pi)) (1 - 1/(2x^2) + 3/(2x^2)^2 - ...), tiny terms by x >= 26 */
	x2 = 2 * x * x;
	for (k = 1; k <= 12; k++) {
		term *= -(2.0 * k - 1) / x2;
		sum += term;
	}
	return -x * x - log(x) - 0.5 * log(M_PI) + log(sum);
}

/*
 * Hill's (1970, CACM algorithm 395) normalising transformation of t for
 * many degrees of freedom: log P(|T| > |t|) = log erfc(y / sqrt 2) with
 * an error O(df^-3). Used for df >= 100 and t^2/df small, where the
 * continued fraction below loses digits (its x is then close to 1).
 */
static double log_two_sided_hill(double df, double l1p)
{
	double a = df - 0.5, b = 48 * a * a, z = sqrt(a * l1p), z2 = z * z, y;

	y = z + (z2 * z + 3 * z) / b -
	    (4 * z2 * z2 * z2 * z + 33 * z2 * z2 * z + 240 * z2 * z + 855 * z) / (10 * b * (b + 0.8 * z2 * z2 + 100));
	return log_erfc(y / M_SQRT2);
}

/*
 * log of the two-sided tail P(|T| > |t|) of Student's t with df degrees of
 * freedom: log I_x(df/2, 1/2) with x = df / (df + t^2), in logs throughout,
 * so it stays exact far below the smallest double (t up to DBL_MAX).
 */
static double log_two_sided(double t, double df)
{
	double a = df / 2, b = 0.5, at = fabs(t), lx, l1x, lfront, l1p;

	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (at == 0)
		return 0;
	if (isinf(at))
		return -INFINITY;
	/* l1p = log(1 + t^2/df) = -log x, never forming t^2 when it would overflow */
	if (at > sqrt(df) && at > 1e150)
		l1p = 2 * log(at) - log(df) + log1p(df / at / at);
	else
		l1p = log1p(at * at / df);
	/* measured against 40-digit values: both within 1e-13 of log p where used */
	if (df >= 100 && l1p < 0.03)
		return log_two_sided_hill(df, l1p);
	lx = -l1p;
	l1x = 2 * log(at) - log(df) - l1p;	/* log(t^2 / (df + t^2)) */
	lfront = a * lx + b * l1x + lgamma_ratio(a, b) - lgamma(b);	/* x^a (1-x)^b / B(a, b) */
	if (exp(lx) < (a + 1) / (a + b + 2))
		return lfront + log(beta_cf(a, b, exp(lx), exp(l1x))) - log(a);
	/* the tail is large here: the complement has no cancellation to fear */
	return log1p(-exp(lfront) * beta_cf(b, a, exp(l1x), exp(lx)) / b);
}

double an_t_log_sf(double t, double df)
{
	double l = log_two_sided(t, df);

	if (isnan(l))
		return l;
	return t > 0 ? l - M_LN2 : log1p(-exp(l) / 2);
}

double an_t_sf(double t, double df)
{
	return exp(an_t_log_sf(t, df));
}

double an_t_cdf(double t, double df)
{
	return an_t_sf(-t, df);
}

double an_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;
	int i;

	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (an_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void an_welch(const struct an_summary *a, const struct an_summary *b, struct an_welch *w)
{
	double va, vb, se2, l;

	memset(w, 0, sizeof(*w));
	w->p = 1;
	if (a->n_used < 2 || b->n_used < 2)
		return;
	w->tested = 1;
	va = a->sample_std * a->sample_std / (double)a->n_used;
	vb = b->sample_std * b->sample_std / (double)b->n_used;
	se2 = va + vb;
	if (se2 <= 0) {
		/* no spread on either side: equal means, or a difference no test can doubt */
		w->t = a->mean == b->mean ? 0 : a->mean > b->mean ? INFINITY : -INFINITY;
		w->df = (double)(a->n_used + b->n_used - 2);
	} else {
		w->t = (a->mean - b->mean) / sqrt(se2);
		w->df = se2 * se2 / (va * va / (double)(a->n_used - 1) + vb * vb / (double)(b->n_used - 1));
	}
	l = log_two_sided(w->t, w->df);
	w->log10_p = l / M_LN10;
	w->p = exp(l);
	if (w->p < DBL_MIN)
		w->p = 0;	/* only log10_p can say how small */
}

double an_welch_p(const struct an_summary *a, const struct an_summary *b)
{
	struct an_welch w;

	an_welch(a, b, &w);
	return w.p;
}

/* A value's run and position, to sort by run and then by position. */
struct run_pos {
	size_t run, pos;
};

static int cmp_run_pos(const void *a, const void *b)
{
	const struct run_pos *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

int an_run_means(double *v, const double *w, size_t *run, size_t n, size_t *nruns)
{
	struct run_pos *at = malloc((n + 1) * sizeof(*at));
	double *m = malloc((n + 1) * sizeof(*m));
	size_t i, k, out = 0;

	if (!at || !m) {
		free(at);
		free(m);
		return -1;
	}
	for (i = 0; i < n; i++)
		at[i] = (struct run_pos){run[i], i};
	if (n > 1)
		qsort(at, n, sizeof(*at), cmp_run_pos);
	for (i = 0; i < n; i = k) {
		double t = 0, tw = 0;

		for (k = i; k < n && at[k].run == at[i].run; k++) {
			double wk = w ? w[at[k].pos] : 1;

			t += wk * v[at[k].pos];
			tw += wk;
		}
		run[out] = at[i].run;
		m[out++] = t / tw;
	}
	if (out)
		memcpy(v, m, out * sizeof(*m));
	free(at);
	free(m);
	*nruns = out;
	return 0;
}
