/* SPDX-License-Identifier: Apache-2.0 */
/* Host linkage: a device event's correlation_id to its host launch and the executor around it. */
#include "an_link.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "xp_sort.h"

/*
 * Launches (host events with a correlation_id) run inside an executor event
 * of their execution: on the executor's own thread (older XLA, whose
 * "<module>:XLA GPU module" event encloses its launches) or on API and
 * callback threads (JAX 0.8), with one executor thread per device in
 * multi-device runs, and those overlap in time. So a launch is resolved on
 * its own line when an executor there encloses it; otherwise each launch line
 * is first paired with the executor line that encloses most of its launches,
 * and the launch is resolved only on that line.
 */
struct an_launch {
	uint64_t corr;
	int64_t t;		/* on the host time scale (an_host_time) */
	uint32_t line;		/* index into the host lines, over every host plane */
};

struct an_host_exec {
	const char *module;	/* not NUL-terminated: mlen bytes, fingerprint removed */
	size_t mlen;
	uint32_t line;
	int64_t start, end;
	int64_t max_end;	/* the largest end among this and earlier entries of the line */
};

/*
 * The forms of executor event XLA has written, tried in this order; each
 * names the module it runs (*len bytes at *m) or returns 0.
 */
static int form_module_name(const struct xp_plane *p, const struct xp_event *e, const char **m,
			    size_t *len)
{
	const struct xp_stat *s = xp_event_stat(p, e, XP_K_MODULE_NAME);

	return s && (*m = xp_stat_str(p, s, len)) != NULL;
}

/* The forms named by the event's name alone take its metadata's name. */
static int form_gpu_module(const char *name, const char **m, size_t *len)
{
	static const char suffix[] = ":XLA GPU module";
	size_t n = strlen(name), k = sizeof(suffix) - 1;

	if (n <= k || strcmp(name + n - k, suffix))
		return 0;
	*m = name;
	*len = n - k;
	return 1;
}

static int form_xla_module_range(const char *name, const char **m, size_t *len)
{
	const char *v;

	if (strncmp(name, "XlaModule:", 10))
		return 0;
	for (v = name + 10; (v = strstr(v, "hlo_module=")); v++)
		if (v[-1] == '#' || v[-1] == ',')
			break;
	if (!v)
		return 0;
	v += strlen("hlo_module=");
	*len = strcspn(v, ",#");
	*m = v;
	return *len > 0;
}

/*
 * The forms, tried in this order: an event with a module_name stat
 * (GpuExecutable::ExecuteThunks, capture's ranges), then by its name the
 * older "<module>:XLA GPU module" and XLA's NVTX range
 * "XlaModule:#hlo_module=<m>,...#".
 */
static int (*const name_forms[])(const char *name, const char **m, size_t *len) = {
	form_gpu_module,
	form_xla_module_range,
};

int an_exec_wants_host_event(const char *name)
{
	const char *m;
	size_t len, j;

	for (j = 0; j < sizeof(name_forms) / sizeof(name_forms[0]); j++)
		if (name_forms[j](name, &m, &len))
			return 1;
	return 0;
}

const char an_executor_forms[] =
	"GpuExecutable::ExecuteThunks with a module_name, '<module>:XLA GPU module', "
	"'XlaModule:#hlo_module=<module>,...#'";

/* len without a "(digits)" fingerprint at the end of m. */
static size_t strip_fingerprint(const char *m, size_t len)
{
	size_t i = len;

	if (len < 3 || m[len - 1] != ')')
		return len;
	for (i = len - 1; i > 0 && isdigit((unsigned char)m[i - 1]); i--)
		;
	return i > 1 && i < len - 1 && m[i - 1] == '(' ? i - 1 : len;
}

/* Whether the len bytes at m are the whole of name. */
static int same_module(const char *m, size_t len, const char *name)
{
	return !strncmp(m, name, len) && name[len] == '\0';
}

static int cmp_launch(const void *a, const void *b)
{
	const struct an_launch *x = a, *y = b;
	int c = xp_cmp_u64(x->corr, y->corr);

	return c ? c : xp_cmp_i64(x->t, y->t);
}

static int cmp_hexec(const void *a, const void *b)
{
	const struct an_host_exec *x = a, *y = b;
	int c;

	if ((c = xp_cmp_u64(x->line, y->line)) || (c = xp_cmp_i64(x->start, y->start)))
		return c;
	return xp_cmp_i64(y->end, x->end);	/* the enclosing one first */
}

void an_host_link_release(struct an_host_link *h)
{
	an_corr_index_release(&h->by_corr);
	free(h->launches);
	free(h->hexecs);
	free(h->exec_line_of);
	memset(h, 0, sizeof(*h));
}

/*
 * A thread's executors nest a few deep at most; on a line whose events
 * overlap more (hostile input) only this many are looked back at.
 */
#define ENCLOSING_MAX_STEPS 64

/*
 * The latest-starting executor on `line` that encloses time t (and runs
 * `module` unless NULL), among the ENCLOSING_MAX_STEPS latest starting at or
 * before t; returns 1 + its index, or 0.
 */
static size_t enclosing(const struct an_host_link *h, uint32_t line, int64_t t, const char *module)
{
	size_t lo = 0, hi = h->nhexecs, i, steps = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct an_host_exec *x = &h->hexecs[mid];

		if (x->line < line || (x->line == line && x->start <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0 && steps++ < ENCLOSING_MAX_STEPS;) {
		const struct an_host_exec *x = &h->hexecs[i];

		if (x->line != line || x->max_end < t)
			break;
		if (x->start <= t && t <= x->end && (!module || same_module(x->module, x->mlen, module)))
			return i + 1;
	}
	return 0;
}

/* Launches by (line, t), for pairing: sorting indexes needs the launches, so carry them. */
struct line_launch {
	int64_t line;		/* a host line index, as wide as t for the radix sort */
	int64_t t;
};

static int cmp_line_launch(const void *a, const void *b)
{
	const struct line_launch *x = a, *y = b;
	int c = xp_cmp_i64(x->line, y->line);

	return c ? c : xp_cmp_i64(x->t, y->t);
}

/* Launches of one line that vote, spread evenly over it; and the vote's whole budget. */
#define PAIR_SAMPLES 256
#define PAIR_BUDGET ((size_t)1 << 24)

/*
 * Pairs each launch line that holds no executors with the executor line
 * that encloses most of its launches (a line with executors keeps its own:
 * its launches resolve there or nowhere). At most PAIR_SAMPLES launches of a
 * line vote, and the vote stops after PAIR_BUDGET lookups in all (hostile
 * input: thousands of lines of each kind); lines left unpaired then link
 * nothing, which the device's counts of unlinked events show.
 */
static int pair_lines(struct an_host_link *h)
{
	size_t n = h->nlines, i, j, k, nex = 0, nll = 0, budget = PAIR_BUDGET;
	uint32_t *ex = xp_malloc_big(h->nhexecs + 1, sizeof(*ex));	/* executor lines, ascending */
	unsigned char *is_ex = calloc(n + 1, 1);
	struct line_launch *ll = xp_malloc_big(h->nlaunches + 1, sizeof(*ll));
	size_t *votes = NULL;
	int ret = XP_ERR_NOMEM;

	h->exec_line_of = xp_malloc_big(n + 1, sizeof(*h->exec_line_of));
	if (!ex || !is_ex || !ll || !h->exec_line_of)
		goto out;
	for (i = 0; i < n; i++)
		h->exec_line_of[i] = UINT32_MAX;
	for (i = 0; i < h->nhexecs; i++) {	/* hexecs are sorted by line */
		if (!nex || ex[nex - 1] != h->hexecs[i].line)
			ex[nex++] = h->hexecs[i].line;
		is_ex[h->hexecs[i].line] = 1;
	}
	votes = calloc(nex + 1, sizeof(*votes));
	if (!votes)
		goto out;
	for (i = 0; i < h->nlaunches; i++)
		if (!is_ex[h->launches[i].line]) {
			ll[nll].line = h->launches[i].line;
			ll[nll++].t = h->launches[i].t;
		}
	/* by line, then time: two stable radix sorts, the second key first */
	if (xp_sort_by_i64(ll, nll, sizeof(*ll), offsetof(struct line_launch, t)) ||
	    xp_sort_by_i64(ll, nll, sizeof(*ll), offsetof(struct line_launch, line)))
		qsort(ll, nll, sizeof(*ll), cmp_line_launch);
	for (i = 0; i < nll; i = k) {
		size_t m, stride, best = 0;

		for (k = i; k < nll && ll[k].line == ll[i].line; k++)
			;
		m = k - i;
		stride = (m + PAIR_SAMPLES - 1) / PAIR_SAMPLES;
		memset(votes, 0, nex * sizeof(*votes));
		for (j = i; j < k && budget >= nex; j += stride) {
			size_t e;

			budget -= nex;
			for (e = 0; e < nex; e++)
				votes[e] += enclosing(h, ex[e], ll[j].t, NULL) != 0;
		}
		for (j = 0; j < nex; j++) {
			if (votes[j] > best) {
				best = votes[j];
				h->exec_line_of[ll[i].line] = ex[j];
			}
		}
	}
	ret = 0;
out:
	free(votes);
	free(ex);
	free(is_ex);
	free(ll);
	return ret;
}

/* The module an executor named like this runs (fingerprint removed), by metadata. */
struct name_form {
	const char *m;		/* NULL: no executor form */
	size_t len;
};

/* name_form of every event metadata of p (its sentinel included); NULL if out of memory. */
static struct name_form *name_forms_of(const struct xp_plane *p)
{
	struct name_form *nf = calloc(p->nevmetas + 1, sizeof(*nf));
	size_t i, j;

	for (i = 0; nf && i <= p->nevmetas; i++)
		for (j = 0; j < sizeof(name_forms) / sizeof(name_forms[0]); j++)
			if (name_forms[j](p->evmetas[i].name, &nf[i].m, &nf[i].len)) {
				nf[i].len = strip_fingerprint(nf[i].m, nf[i].len);
				if (!nf[i].len)
					nf[i].m = NULL;
				break;
			}
	return nf;
}

/* Whether event e of host plane p is an executor: its module in *m, *len. */
static int executor_module(const struct xp_plane *p, const struct xp_event *e,
			   const struct name_form *nf, const char **m, size_t *len)
{
	if (form_module_name(p, e, m, len)) {
		*len = strip_fingerprint(*m, *len);
		return *len > 0;
	}
	*m = nf[e->meta].m;
	*len = nf[e->meta].len;
	return *m != NULL;
}

int an_host_link_build(struct xp_trace *t, struct an_host_link *h, struct xp_err *err)
{
	size_t pi, i, k, nl = 0, nh = 0, line_base = 0;
	struct name_form **nfs = calloc(t->nplanes + 1, sizeof(*nfs));	/* per host plane */
	int ret = XP_ERR_NOMEM, have_ref = 0;

	if (!nfs)
		goto out;
	/* Host planes are read only now, when a device plane needs them (lazy planes). */
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];
		const char *m;
		size_t len;

		if (strncmp(p->name, "/host:", 6))
			continue;
		if ((ret = xp_trace_load_plane(t, pi, err)))
			goto out;
		ret = XP_ERR_NOMEM;
		if (!(nfs[pi] = name_forms_of(p)))
			goto out;
		h->nplanes++;
		h->nlines += p->nlines;
		if (p->nevents && !have_ref) {
			h->ref_ns = p->base_ns;
			have_ref = 1;
		}
		for (i = 0; i < p->nevents; i++) {
			nl += xp_event_stat(p, &p->events[i], XP_K_CORRELATION_ID) != NULL;
			nh += executor_module(p, &p->events[i], nfs[pi], &m, &len);
		}
	}
	h->launches = xp_malloc_big(nl + 1, sizeof(*h->launches));
	h->hexecs = xp_malloc_big(nh + 1, sizeof(*h->hexecs));
	if (!h->launches || !h->hexecs)
		goto out;
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		if (!nfs[pi])
			continue;
		for (i = 0; i < p->nevents; i++) {
			const struct xp_event *e = &p->events[i];
			const struct xp_stat *s = xp_event_stat(p, e, XP_K_CORRELATION_ID);
			uint32_t line = (uint32_t)(line_base + e->line);
			struct an_launch *l = &h->launches[h->nlaunches];
			struct an_host_exec *x = &h->hexecs[h->nhexecs];
			int64_t t0, t1;
			int isx = executor_module(p, e, nfs[pi], &x->module, &x->mlen);

			if (!s && !isx)
				continue;
			if (an_host_time(h, p, e->start_ps, &t0) || an_host_time(h, p, e->start_ps + e->dur_ps, &t1)) {
				ret = xp_err_set(err, XP_ERR_LIMIT, "host plane '%s' is based too far from the "
						 "first host plane to compare their times", p->name);
				goto out;
			}
			if (s && !xp_stat_u64(s, &l->corr)) {
				l->t = t0;
				l->line = line;
				h->nlaunches++;
			}
			if (isx) {
				x->line = line;
				x->start = t0;
				x->end = t1;
				h->nhexecs++;
			}
		}
		line_base += p->nlines;
	}
	ret = 0;
	if (!h->nlaunches || !h->nhexecs)
		goto out;
	/* by id, then time: two stable radix sorts, the second key first */
	if (xp_sort_by_i64(h->launches, h->nlaunches, sizeof(*h->launches), offsetof(struct an_launch, t)) ||
	    xp_sort_by_u64(h->launches, h->nlaunches, sizeof(*h->launches), offsetof(struct an_launch, corr)))
		qsort(h->launches, h->nlaunches, sizeof(*h->launches), cmp_launch);
	an_corr_index_build(&h->by_corr, h->launches, h->nlaunches, sizeof(*h->launches),
			    offsetof(struct an_launch, corr));
	qsort(h->hexecs, h->nhexecs, sizeof(*h->hexecs), cmp_hexec);
	/*
	 * One thread runs one execution at a time, so executors of one module
	 * that overlap on a line are one execution seen twice (JAX 0.8 writes
	 * ExecuteThunks around "<module>:XLA GPU module"): keep their union.
	 */
	for (i = 0, k = 0; i < h->nhexecs; i++) {
		struct an_host_exec *x = &h->hexecs[i], *prev = k ? &h->hexecs[k - 1] : NULL;

		if (prev && prev->line == x->line && x->start < prev->end && prev->mlen == x->mlen &&
		    !memcmp(prev->module, x->module, x->mlen)) {
			if (x->end > prev->end)
				prev->end = x->end;
			continue;
		}
		h->hexecs[k++] = *x;
	}
	h->nhexecs = k;
	for (i = 0; i < h->nhexecs; i++) {
		struct an_host_exec *x = &h->hexecs[i];

		x->max_end = x->end;
		if (i && x->line == x[-1].line && x[-1].max_end > x->max_end)
			x->max_end = x[-1].max_end;
	}
	ret = pair_lines(h);
out:
	for (pi = 0; nfs && pi < t->nplanes; pi++)
		free(nfs[pi]);
	free(nfs);
	return ret;
}

/*
 * The executor (1 + index) that encloses launch l and runs module (any when
 * NULL): on the launch's own line, else on the line paired with it; 0 if none.
 */
static size_t launch_exec(const struct an_host_link *h, const struct an_launch *l, const char *module)
{
	size_t k = enclosing(h, l->line, l->t, NULL);

	if (k)
		return !module || same_module(h->hexecs[k - 1].module, h->hexecs[k - 1].mlen, module) ? k : 0;
	if (h->exec_line_of[l->line] == UINT32_MAX)
		return 0;
	return enclosing(h, h->exec_line_of[l->line], l->t, module);
}

/* The launches with id corr are [*first, *first + return value). */
static size_t launch_range(const struct an_host_link *h, uint64_t corr, size_t *first)
{
	return an_corr_range(&h->by_corr, corr, first);
}

/* At most this many launches sharing one id are looked at for one device event. */
#define LINK_MAX_CANDIDATES 256

static uint64_t absdiff(int64_t x, int64_t y)
{
	return x >= y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
}

/*
 * The executor (1 + index in *hk) that launched the device event with
 * correlation id corr of function module. A repeated id (several processes'
 * launches in one file, or a file made by repeating a trace) is resolved
 * among the launches on the device's own launching lines when those are
 * known (else among all), by time, kt being the event's start on the host
 * time scale (have_kt 0: unknown):
 *   - when the device's launch lag is known, the one launch whose lag lies
 *     in the learnt range widened by its width (at least 1 us) on each side;
 *   - else (or when none lies there) the launch nearest kt, when it is more
 *     than twice as near as any other that fits. Host and device clocks disagree a little (kernels
 *     appear before their launch), so nearness, not "at or before", decides;
 *     a lag of more than a third of the launches' spacing can pick the wrong one.
 * Two that fit equally, or more than LINK_MAX_CANDIDATES launches to look
 * at, make the event ambiguous.
 */
enum an_linked an_host_link_find(const struct an_host_link *h, uint64_t corr, const char *module,
				 const struct an_dev_link *dl, int have_kt, int64_t kt, size_t *hk)
{
	size_t lo, hi, first, last, a, b, steps, found = 0;
	uint64_t best = 0;
	int pass;

	*hk = 0;
	last = launch_range(h, corr, &first);
	if (!last)
		return AN_LINKED_NO_LAUNCH;
	last += first;
	if (last - first == 1) {
		*hk = launch_exec(h, &h->launches[first], module);
		return *hk ? AN_LINKED_OK : AN_LINKED_NO_EXECUTOR;
	}
	for (pass = dl->lines ? 0 : 1; pass < 2 && !found; pass++) {
		if (have_kt && dl->have_lag) {
			/* launches with t in [kt - lag_hi - w, kt - lag_lo + w] */
			int64_t w = dl->lag_hi - dl->lag_lo > 1000000 ? dl->lag_hi - dl->lag_lo : 1000000;
			int64_t tlo = xp_sat_sub(xp_sat_sub(kt, dl->lag_hi), w), thi = xp_sat_sub(kt, xp_sat_sub(dl->lag_lo, w));

			for (lo = first, hi = last; lo < hi;) {
				size_t mid = lo + (hi - lo) / 2;

				if (h->launches[mid].t < tlo)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (steps = 0; lo < last && h->launches[lo].t <= thi; lo++) {
				const struct an_launch *l = &h->launches[lo];
				size_t k;

				if (pass == 0 && !dl->lines[l->line])
					continue;
				if (++steps > LINK_MAX_CANDIDATES)
					return AN_LINKED_AMBIGUOUS;
				if (!(k = launch_exec(h, l, module)))
					continue;
				if (found)
					return AN_LINKED_AMBIGUOUS;
				found = k;
			}
			if (found)
				break;
		}
		/* Nearest first: walk outwards from kt (from the earliest when kt is unknown). */
		for (lo = first, hi = last; have_kt && lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (h->launches[mid].t < kt)
				lo = mid + 1;
			else
				hi = mid;
		}
		a = b = lo;	/* not yet looked at: [first, a) and [b, last) */
		for (steps = 0; a > first || b < last;) {
			const struct an_launch *l;
			uint64_t d;
			size_t k;

			if (b < last && (a == first || !have_kt ||
					 absdiff(h->launches[b].t, kt) <= absdiff(kt, h->launches[a - 1].t)))
				l = &h->launches[b++];
			else
				l = &h->launches[--a];
			if (pass == 0 && !dl->lines[l->line])
				continue;
			d = have_kt ? absdiff(l->t, kt) : 0;
			if (found && have_kt && d - best > best)
				break;	/* the one found is more than twice as near as the rest */
			if (++steps > LINK_MAX_CANDIDATES)
				return AN_LINKED_AMBIGUOUS;	/* not every launch of the id was looked at */
			if (!(k = launch_exec(h, l, module)))
				continue;
			if (found)
				return AN_LINKED_AMBIGUOUS;
			found = k;
			best = d;
		}
	}
	if (!found)
		return AN_LINKED_NO_EXECUTOR;
	*hk = found;
	return AN_LINKED_OK;
}

/*
 * What this device's events whose correlation_id only one launch has teach
 * (struct an_dev_link); nothing is learnt, and nothing allocated, when no id
 * repeats, as then nothing asks.
 */
int an_host_link_learn(const struct an_host_link *h, const struct xp_plane *p,
		       const struct an_ev_ref *evs, size_t n, struct an_dev_link *dl)
{
	size_t k, i, nlines = 0;

	memset(dl, 0, sizeof(*dl));
	for (i = 1; i < h->nlaunches && h->launches[i].corr != h->launches[i - 1].corr; i++)
		;
	if (i >= h->nlaunches)
		return 0;
	dl->lines = calloc(h->nlines + 1, 1);
	if (!dl->lines)
		return XP_ERR_NOMEM;
	for (k = 0; k < n; k++) {
		const struct xp_event *e = &p->events[evs[k].idx];
		const struct xp_stat *cs = xp_event_stat(p, e, XP_K_CORRELATION_ID);
		const struct an_launch *l;
		uint64_t corr;
		size_t first;
		int64_t kt, lag;

		if (!cs || xp_stat_u64(cs, &corr) || launch_range(h, corr, &first) != 1)
			continue;
		l = &h->launches[first];
		if (!launch_exec(h, l, NULL))
			continue;
		nlines += !dl->lines[l->line];
		dl->lines[l->line] = 1;
		if (!an_host_link_time(h, p, e->start_ps, &kt))
			continue;
		lag = xp_sat_sub(kt, l->t);
		if (!dl->have_lag || lag < dl->lag_lo)
			dl->lag_lo = lag;
		if (!dl->have_lag || lag > dl->lag_hi)
			dl->lag_hi = lag;
		dl->have_lag = 1;
	}
	if (!nlines) {
		free(dl->lines);
		dl->lines = NULL;
	}
	return 0;
}
