#include "an_stats.h"

#include <math.h>
#include <stdlib.h>

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
	qsort(s, n, sizeof(*s), cmp_double);
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

/* Continued fraction of the regularised incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
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
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double an_t_cdf(double t, double df)
{
	double tail = 0.5 * inc_beta(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
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

double an_welch_p(const struct an_summary *a, const struct an_summary *b)
{
	double va, vb, se2, t, df;

	if (a->n_used < 2 || b->n_used < 2)
		return 1;
	va = a->sample_std * a->sample_std / (double)a->n_used;
	vb = b->sample_std * b->sample_std / (double)b->n_used;
	se2 = va + vb;
	if (se2 <= 0)
		return a->mean == b->mean ? 1 : 0;
	t = (a->mean - b->mean) / sqrt(se2);
	df = se2 * se2 / (va * va / (double)(a->n_used - 1) + vb * vb / (double)(b->n_used - 1));
	return 2 * (1 - an_t_cdf(fabs(t), df));
}
