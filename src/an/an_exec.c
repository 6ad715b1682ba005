/* SPDX-License-Identifier: Apache-2.0 */
#include "an_exec.h"

#include "an_corr.h"
#include "xp_sort.h"
#include "xp_stray.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A plane's event by start time: sorting these needs no context pointer. */
struct ev_ref {
	int64_t start;
	uint32_t idx;
};

static int cmp_ev_ref(const void *a, const void *b)
{
	const struct ev_ref *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int an_is_device_plane(const char *name)
{
	return !strncmp(name, "/device:GPU:", 12) || !strncmp(name, "/device:TPU:", 12) ||
	       !strncmp(name, "/device:CUSTOM:", 15);
}

int an_device_matches(const char *name, const char *pat)
{
	size_t n = strlen(name), m = strlen(pat), i, j;

	if (!m)
		return 1;
	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m; j++)
			if (tolower((unsigned char)name[i + j]) != tolower((unsigned char)pat[j]))
				break;
		if (j < m)
			continue;
		if (isdigit((unsigned char)pat[m - 1]) && isdigit((unsigned char)name[i + m]))
			continue;
		return 1;
	}
	return 0;
}

static int digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

int an_name_cmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

	while (*x && *y) {
		if (digit(*x) && digit(*y)) {
			const unsigned char *xe, *ye;
			int c;

			while (*x == '0')
				x++;
			while (*y == '0')
				y++;
			for (xe = x; digit(*xe); xe++)
				;
			for (ye = y; digit(*ye); ye++)
				;
			if (xe - x != ye - y)
				return xe - x < ye - y ? -1 : 1;	/* more digits: larger */
			if ((c = memcmp(x, y, (size_t)(xe - x))))
				return c < 0 ? -1 : 1;
			x = xe;
			y = ye;
			continue;
		}
		if (*x != *y)
			return *x < *y ? -1 : 1;
		x++;
		y++;
	}
	if (*x != *y)
		return *x ? 1 : -1;
	return strcmp(a, b);
}

int an_exec_wants_plane(const char *name, void *device_pattern)
{
	return an_is_device_plane(name) &&
	       (!device_pattern || an_device_matches(name, device_pattern));
}

const char *an_split_fingerprint(struct xp_arena *a, const char *name, const char **fp)
{
	size_t n = strlen(name), i;

	*fp = NULL;
	if (n < 3 || name[n - 1] != ')')
		return name;
	for (i = n - 2; i > 0 && isdigit((unsigned char)name[i]); i--)
		;
	if (name[i] != '(' || i == n - 2 || i == 0)
		return name;
	*fp = xp_arena_strndup(a, name + i + 1, n - i - 2);
	return xp_arena_strndup(a, name, i);
}

/* x - y, saturated to the int64 range. */
static int64_t sat_sub(int64_t x, int64_t y)
{
	int64_t d;

	if (!__builtin_sub_overflow(x, y, &d))
		return d;
	return x > y ? INT64_MAX : INT64_MIN;
}

/* --- host linkage: device correlation_id -> launch -> enclosing executor event -------- */

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
struct launch {
	uint64_t corr;
	int64_t t;		/* on the host time scale (host_time) */
	uint32_t line;		/* index into the host lines, over every host plane */
};

struct host_exec {
	const char *module;	/* not NUL-terminated: mlen bytes, fingerprint removed */
	size_t mlen;
	uint32_t line;
	int64_t start, end;
	int64_t max_end;	/* the largest end among this and earlier entries of the line */
};

struct host_link {
	struct launch *launches;	/* by (corr, t) */
	size_t nlaunches;
	struct an_corr_index by_corr;	/* of launches */
	struct host_exec *hexecs;	/* by (line, start) */
	size_t nhexecs;
	uint32_t *exec_line_of;		/* launch line -> paired executor line, or UINT32_MAX */
	size_t nlines;
	size_t nplanes;			/* host planes */
	int64_t ref_ns;			/* the host time scale: ps since this ns timestamp */
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
	const struct launch *x = a, *y = b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
}

static int cmp_hexec(const void *a, const void *b)
{
	const struct host_exec *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;	/* the enclosing one first */
}

static void host_link_release(struct host_link *h)
{
	an_corr_index_release(&h->by_corr);
	free(h->launches);
	free(h->hexecs);
	free(h->exec_line_of);
	memset(h, 0, sizeof(*h));
}

/*
 * Time start_ps of plane p on the host time scale; -1 when it does not fit
 * (planes based farther apart than int64 picoseconds reach).
 */
static int host_time(const struct host_link *h, const struct xp_plane *p, int64_t start_ps,
		     int64_t *out)
{
	int64_t d;

	if (__builtin_sub_overflow(p->base_ns, h->ref_ns, &d) || __builtin_mul_overflow(d, 1000, &d) ||
	    __builtin_add_overflow(d, start_ps, out))
		return -1;
	return 0;
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
static size_t enclosing(const struct host_link *h, uint32_t line, int64_t t, const char *module)
{
	size_t lo = 0, hi = h->nhexecs, i, steps = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct host_exec *x = &h->hexecs[mid];

		if (x->line < line || (x->line == line && x->start <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0 && steps++ < ENCLOSING_MAX_STEPS;) {
		const struct host_exec *x = &h->hexecs[i];

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

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
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
static int pair_lines(struct host_link *h)
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

static int host_link_build(struct xp_trace *t, struct host_link *h, struct xp_err *err)
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
			struct launch *l = &h->launches[h->nlaunches];
			struct host_exec *x = &h->hexecs[h->nhexecs];
			int64_t t0, t1;
			int isx = executor_module(p, e, nfs[pi], &x->module, &x->mlen);

			if (!s && !isx)
				continue;
			if (host_time(h, p, e->start_ps, &t0) || host_time(h, p, e->start_ps + e->dur_ps, &t1)) {
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
	if (xp_sort_by_i64(h->launches, h->nlaunches, sizeof(*h->launches), offsetof(struct launch, t)) ||
	    xp_sort_by_u64(h->launches, h->nlaunches, sizeof(*h->launches), offsetof(struct launch, corr)))
		qsort(h->launches, h->nlaunches, sizeof(*h->launches), cmp_launch);
	an_corr_index_build(&h->by_corr, h->launches, h->nlaunches, sizeof(*h->launches),
			    offsetof(struct launch, corr));
	qsort(h->hexecs, h->nhexecs, sizeof(*h->hexecs), cmp_hexec);
	/*
	 * One thread runs one execution at a time, so executors of one module
	 * that overlap on a line are one execution seen twice (JAX 0.8 writes
	 * ExecuteThunks around "<module>:XLA GPU module"): keep their union.
	 */
	for (i = 0, k = 0; i < h->nhexecs; i++) {
		struct host_exec *x = &h->hexecs[i], *prev = k ? &h->hexecs[k - 1] : NULL;

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
		struct host_exec *x = &h->hexecs[i];

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
static size_t launch_exec(const struct host_link *h, const struct launch *l, const char *module)
{
	size_t k = enclosing(h, l->line, l->t, NULL);

	if (k)
		return !module || same_module(h->hexecs[k - 1].module, h->hexecs[k - 1].mlen, module) ? k : 0;
	if (h->exec_line_of[l->line] == UINT32_MAX)
		return 0;
	return enclosing(h, h->exec_line_of[l->line], l->t, module);
}

/* How a device event's correlation id resolved. */
enum link_result {
	LINK_OK,
	LINK_NO_LAUNCH,		/* no host launch has that id */
	LINK_NO_EXECUTOR,	/* its launch lies in no executor of the event's function */
	LINK_AMBIGUOUS,		/* several launches fit and neither thread nor time chooses */
};

/* The launches with id corr are [*first, *first + return value). */
static size_t launch_range(const struct host_link *h, uint64_t corr, size_t *first)
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
 * What the device's own uniquely linked events teach about its repeated
 * ids: the host lines that launch for it, and the range of its launch lag
 * (device event start minus launch, on the host time scale).
 */
struct dev_link {
	unsigned char *lines;	/* per host line; NULL: none learnt */
	int have_lag;
	int64_t lag_lo, lag_hi;
};

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
static enum link_result host_link_find(const struct host_link *h, uint64_t corr, const char *module,
				       const struct dev_link *dl, int have_kt, int64_t kt, size_t *hk)
{
	size_t lo, hi, first, last, a, b, steps, found = 0;
	uint64_t best = 0;
	int pass;

	*hk = 0;
	last = launch_range(h, corr, &first);
	if (!last)
		return LINK_NO_LAUNCH;
	last += first;
	if (last - first == 1) {
		*hk = launch_exec(h, &h->launches[first], module);
		return *hk ? LINK_OK : LINK_NO_EXECUTOR;
	}
	for (pass = dl->lines ? 0 : 1; pass < 2 && !found; pass++) {
		if (have_kt && dl->have_lag) {
			/* launches with t in [kt - lag_hi - w, kt - lag_lo + w] */
			int64_t w = dl->lag_hi - dl->lag_lo > 1000000 ? dl->lag_hi - dl->lag_lo : 1000000;
			int64_t tlo = sat_sub(sat_sub(kt, dl->lag_hi), w), thi = sat_sub(kt, sat_sub(dl->lag_lo, w));

			for (lo = first, hi = last; lo < hi;) {
				size_t mid = lo + (hi - lo) / 2;

				if (h->launches[mid].t < tlo)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (steps = 0; lo < last && h->launches[lo].t <= thi; lo++) {
				const struct launch *l = &h->launches[lo];
				size_t k;

				if (pass == 0 && !dl->lines[l->line])
					continue;
				if (++steps > LINK_MAX_CANDIDATES)
					return LINK_AMBIGUOUS;
				if (!(k = launch_exec(h, l, module)))
					continue;
				if (found)
					return LINK_AMBIGUOUS;
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
			const struct launch *l;
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
				return LINK_AMBIGUOUS;	/* not every launch of the id was looked at */
			if (!(k = launch_exec(h, l, module)))
				continue;
			if (found)
				return LINK_AMBIGUOUS;
			found = k;
			best = d;
		}
	}
	if (!found)
		return LINK_NO_EXECUTOR;
	*hk = found;
	return LINK_OK;
}

/* --- per plane ---------------------------------------------------------------------- */

struct plane_ctx {
	struct xp_trace *t;
	struct xp_err *err;	/* set for errors other than out of memory */
	const struct xp_plane *p;
	const struct an_exec_opts *o;
	struct an_exec_list *out;
	struct host_link *host;
	int host_built;
	uint32_t device;
};

static struct an_exec *push_exec(struct an_exec_list *l)
{
	if (xp_grow(&l->execs, &l->cap, l->n, sizeof(*l->execs), 64))
		return NULL;
	memset(&l->execs[l->n], 0, sizeof(l->execs[0]));
	return &l->execs[l->n++];
}

/*
 * The function an event's hlo_module stat names: 1 with the name in *raw,
 * 0 when there is no such stat, -1 when it names nothing (a ref_value to
 * stat metadata the file lacks, or not a string), counted on the device.
 */
static int module_of(struct plane_ctx *c, const struct xp_event *e, const char **raw, size_t *len)
{
	const struct xp_stat *s = xp_event_stat(c->p, e, XP_K_HLO_MODULE);
	struct an_device *dev = &c->out->devices[c->device];

	*raw = NULL;
	*len = 0;
	if (!s)
		return 0;
	*raw = xp_stat_str(c->p, s, len);
	if (*raw)
		return 1;
	if (s->type == XP_STAT_REF)
		dev->module_ref_nowhere++;
	else
		dev->odd_stats[XP_K_HLO_MODULE]++;
	return -1;
}

/* A decimal string of at most 19 digits (no sign, no space) as a program id. */
static int digits_u64(const char *p, size_t len, uint64_t *out)
{
	size_t i;

	if (!len || len > 19)
		return -1;
	*out = 0;
	for (i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		*out = *out * 10 + (uint64_t)(p[i] - '0');
	}
	return 0;
}

/*
 * Name, fingerprint and program id of a function event, named by raw (its
 * hlo_module, len bytes) or, when NULL, by its own metadata.
 */
static int describe(struct plane_ctx *c, const struct xp_event *e, const char *raw, size_t len,
		    struct an_exec *x)
{
	const struct xp_plane *p = c->p;
	const struct xp_stat *s;
	const char *str;
	size_t slen;

	raw = raw ? xp_arena_strndup(&c->out->arena, raw, len) : xp_event_name(p, e);
	if (!raw)
		return XP_ERR_NOMEM;
	x->name = an_split_fingerprint(&c->out->arena, raw, &x->fingerprint);
	if (!x->name)
		return XP_ERR_NOMEM;
	s = xp_event_stat(p, e, XP_K_PROGRAM_ID);
	x->has_program_id = s && !xp_stat_u64(s, &x->program_id);
	if (s && !x->has_program_id) {
		/* A string of digits is as clear a program id as an integer; anything else is counted. */
		str = s->type == XP_STAT_STR || s->type == XP_STAT_BYTES ? xp_stat_str(p, s, &slen) : NULL;
		x->has_program_id = str && !digits_u64(str, slen, &x->program_id);
		if (!x->has_program_id)
			c->out->devices[c->device].odd_stats[XP_K_PROGRAM_ID]++;
	}
	if (!x->has_program_id && x->fingerprint) {
		char *end;

		x->program_id = strtoull(x->fingerprint, &end, 10);
		x->has_program_id = !*end;
	}
	s = xp_event_stat(p, e, XP_K_RUN_ID);
	x->has_run_id = s && !xp_stat_u64(s, &x->run_id);
	return 0;
}

static int same_function(const struct an_exec *a, const struct an_exec *b)
{
	return !strcmp(a->name, b->name) && a->has_program_id == b->has_program_id &&
	       (!a->has_program_id || a->program_id == b->program_id);
}

/* Union length of intervals given in start order, accumulated one at a time. */
struct merger {
	int64_t s, e, total;
	int open;
};

static void merger_add(struct merger *m, int64_t s, int64_t e)
{
	if (m->open && s <= m->e) {
		if (e > m->e)
			m->e = e;
		return;
	}
	if (m->open && __builtin_add_overflow(m->total, sat_sub(m->e, m->s), &m->total))
		m->total = INT64_MAX;
	m->s = s;
	m->e = e;
	m->open = 1;
}

static int64_t merger_total(const struct merger *m)
{
	int64_t t;

	if (__builtin_add_overflow(m->total, m->open ? sat_sub(m->e, m->s) : 0, &t))
		return INT64_MAX;
	return t;
}

size_t an_device_lines(const char *const *names, size_t nlines, unsigned char *use, int *module_line)
{
	size_t i, n = 0;

	*module_line = -1;
	for (i = 0; i < nlines && *module_line < 0; i++)
		if (!strcmp(names[i], "XLA Modules"))
			*module_line = (int)i;
	if (*module_line >= 0) {
		use[*module_line] = 1;
		return 1;
	}
	for (i = 0; i < nlines; i++)
		if (!strncmp(names[i], "Stream #", 8))
			use[i] = 1, n++;
	if (!n)
		for (i = 0; i < nlines; i++)
			use[i] = 1, n++;
	return n;
}

/* Marks the lines of p whose events are device work; returns how many, or -1 (no memory). */
static long device_lines(const struct xp_plane *p, unsigned char *use, int *module_line)
{
	const char **names = xp_malloc_big(p->nlines + 1, sizeof(*names));
	size_t i, n;

	if (!names)
		return -1;
	for (i = 0; i < p->nlines; i++)
		names[i] = p->lines[i].name;
	n = an_device_lines(names, p->nlines, use, module_line);
	free(names);
	return (long)n;
}

size_t an_plane_device_events(const struct xp_plane *p)
{
	unsigned char *use = calloc(p->nlines + 1, 1);
	size_t i, n = 0;
	int module_line;

	if (!use || device_lines(p, use, &module_line) < 0) {
		free(use);
		return p->nevents;	/* out of memory: let the scan find out */
	}
	for (i = 0; i < p->nlines; i++)
		if (use[i])
			n += p->lines[i].nevents;
	free(use);
	return n;
}

void an_exec_want_lines(const char *plane, const char *const *names, size_t n,
			unsigned char *want, void *device_pattern)
{
	int module_line;
	size_t i;

	if (!an_exec_wants_plane(plane, device_pattern))
		return;
	memset(want, 0, n);
	an_device_lines(names, n, want, &module_line);
	/* Read so that an_exec_find can say how many events it leaves out. */
	for (i = 0; module_line >= 0 && i < n; i++)
		if (!strcmp(names[i], "XLA Modules"))
			want[i] = 1;
}

/* Children time of every execution found on this plane (those from index first). */
static int add_children(struct plane_ctx *c, size_t first, const int32_t *owner)
{
	const struct xp_plane *p = c->p;
	struct ev_ref *all = xp_malloc_big(p->nevents + 1, sizeof(*all));
	unsigned char *hit = malloc(p->nevmetas + 1);
	unsigned char *stray = xp_malloc_big(p->nevents + 1, 1);	/* over every line: children may be anywhere */
	size_t i, n = 0, nstray;
	struct xp_err why = {0};

	if (!all || !hit || !stray || xp_plane_stray_ends(p, NULL, stray, &nstray, &why)) {
		free(all);
		free(hit);
		free(stray);
		return XP_ERR_NOMEM;
	}
	c->out->devices[c->device].stray_children = nstray;
	for (i = 0; i <= p->nevmetas; i++)
		hit[i] = !regexec(c->o->children, p->evmetas[i].name, 0, NULL, 0);
	for (i = 0; i < p->nevents; i++) {
		const struct xp_event *e = &p->events[i];

		if (hit[e->meta] && !stray[i] && e->dur_ps >= c->o->min_dur_ps) {
			all[n].start = e->start_ps;
			all[n].idx = (uint32_t)i;
			n++;
		}
	}
	/* by start, then index: all is in index order and the radix sort is stable */
	if (xp_sort_by_i64(all, n, sizeof(*all), offsetof(struct ev_ref, start)))
		qsort(all, n, sizeof(*all), cmp_ev_ref);
	for (i = first; i < c->out->n; i++) {
		struct an_exec *x = &c->out->execs[i];
		int64_t end = x->start_ps + x->span_ps;
		struct merger m = {0};
		size_t lo = 0, hi = n, k;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (all[mid].start < x->start_ps)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (k = lo; k < n && all[k].start <= end; k++) {
			const struct xp_event *e = &p->events[all[k].idx];

			if (e->start_ps + e->dur_ps > end || owner[all[k].idx] == (int32_t)i)
				continue;
			merger_add(&m, e->start_ps, e->start_ps + e->dur_ps);
		}
		x->children_ps = merger_total(&m);
	}
	free(all);
	free(hit);
	free(stray);
	return 0;
}

static int any_module_event(const struct xp_plane *p, const struct ev_ref *evs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (xp_event_stat(p, &p->events[evs[i].idx], XP_K_HLO_MODULE))
			return 1;
	return 0;
}

static int same_name(const struct xp_plane *p, const struct xp_event *a, const struct xp_event *b)
{
	return a->meta == b->meta || !strcmp(xp_event_name(p, a), xp_event_name(p, b));
}

/*
 * How well cutting a run before each event i with cut[i] set separates
 * calls: the shortest gap it cuts over the longest it keeps (gaps kept that
 * are negative, events overlapping, count as 1 ps). 0 unless every cut gap
 * is more than twice as long as every gap kept (a gap the function's own
 * kernels never leave within a call), and there is a gap kept to compare
 * with.
 */
static double cut_score(const int64_t *gap, const unsigned char *cut, size_t n)
{
	int64_t inside = 0, between = INT64_MAX;
	size_t i, ncut = 0;

	for (i = 1; i < n; i++) {
		if (cut[i]) {
			ncut++;
			if (gap[i] < between)
				between = gap[i];
		} else if (gap[i] > inside) {
			inside = gap[i];
		}
	}
	if (!ncut || ncut == n - 1 || between <= 0 || between / 2 <= inside)
		return 0;
	return (double)between / (double)(inside > 0 ? inside : 1);
}

/* cut[] for candidate L: each period L of the run, or (L == 0) each recurrence of its first name. */
static size_t make_cuts(const struct xp_plane *p, const struct ev_ref *evs, const uint32_t *pos,
			size_t n, size_t L, unsigned char *cut)
{
	const struct xp_event *e0 = &p->events[evs[pos[0]].idx];
	size_t i, calls = 1;

	for (i = 0; i < n; i++) {
		cut[i] = i && (L ? !(i % L) : same_name(p, &p->events[evs[pos[i]].idx], e0));
		calls += cut[i];
	}
	return calls;
}

/*
 * The runs rule's second look at one run of n events (pos: indexes into evs,
 * in start order). Calls back to back show as the function's kernel sequence
 * starting again, where every such start leaves a gap more than twice as
 * long as any gap inside a call. The starts tried: each period of the run's
 * event names (the whole sequence repeating; every multiple of the smallest
 * period that divides n is one), and each recurrence of its first event's
 * name (calls whose kernels differ a little); the one that separates best
 * (cut_score) wins, so a call whose own kernels repeat (gemm, relu, gemm,
 * relu) is not cut inside when whole calls separate better. Sets cut[i] for
 * the events that start a call and returns the number of calls; 1 when the
 * run stays whole, and then *repeats says whether its names repeat all the
 * same (a run of one name repeated never splits: there is no gap inside a
 * call to compare with).
 */
static size_t run_calls(const struct xp_plane *p, const struct ev_ref *evs, const uint32_t *pos,
			size_t n, int64_t *gap, unsigned char *cut, int *repeats)
{
	size_t L, L0 = 0, i, best_L = SIZE_MAX, calls;
	int64_t max_end = INT64_MIN;
	double best = 0, sc;

	*repeats = 0;
	for (L = 1; L <= n / 2 && !L0; L++) {
		if (n % L)
			continue;
		for (i = L; i < n; i++)
			if (!same_name(p, &p->events[evs[pos[i]].idx], &p->events[evs[pos[i - L]].idx]))
				break;
		if (i == n)
			L0 = L;
	}
	/* gap[i]: from the latest end among events 0..i-1 to event i's start */
	for (i = 0; i < n; i++) {
		const struct xp_event *e = &p->events[evs[pos[i]].idx];

		gap[i] = i ? sat_sub(e->start_ps, max_end) : 0;
		if (e->start_ps + e->dur_ps > max_end)
			max_end = e->start_ps + e->dur_ps;
	}
	for (L = L0; L0 && L <= n / 2; L += L0) {
		if (n % L)
			continue;
		make_cuts(p, evs, pos, n, L, cut);
		if ((sc = cut_score(gap, cut, n)) > best) {
			best = sc;
			best_L = L;
		}
	}
	calls = make_cuts(p, evs, pos, n, 0, cut);
	if (calls > 1 && (sc = cut_score(gap, cut, n)) > best) {
		best = sc;
		best_L = 0;
	}
	if (best_L == SIZE_MAX) {
		*repeats = L0 || calls > 1;
		return 1;
	}
	return make_cuts(p, evs, pos, n, best_L, cut);
}

/*
 * Splits the runs-rule executions of this plane (from index first) into the
 * calls run_calls finds; ex_of[k] (exec index of evs[k], or -1) follows.
 */
static int split_runs(struct plane_ctx *c, size_t first, const struct ev_ref *evs, size_t n,
		      int32_t *ex_of)
{
	struct an_device *dev = &c->out->devices[c->device];
	size_t nx = c->out->n - first, i, k;
	size_t *at = calloc(nx + 2, sizeof(*at));	/* start of each exec's events in pos */
	uint32_t *pos = xp_malloc_big(n + 1, sizeof(*pos));
	int64_t *gap = xp_malloc_big(n + 1, sizeof(*gap));
	unsigned char *cut = malloc(n + 1);
	size_t *fill = calloc(nx + 1, sizeof(*fill));
	int ret = XP_ERR_NOMEM;

	if (!at || !pos || !gap || !cut || !fill)
		goto out;
	for (k = 0; k < n; k++)
		if (ex_of[k] >= 0)
			at[ex_of[k] - first + 1]++;
	for (i = 0; i < nx; i++)
		at[i + 1] += at[i];
	for (k = 0; k < n; k++)
		if (ex_of[k] >= 0) {
			size_t x = (size_t)ex_of[k] - first;

			pos[at[x] + fill[x]++] = (uint32_t)k;
		}
	for (i = 0; i < nx; i++) {
		size_t m = at[i + 1] - at[i], j;
		int32_t cur = (int32_t)(first + i);
		int repeats;

		if (c->out->execs[first + i].split != AN_SPLIT_RUNS)
			continue;
		dev->runs_execs++;
		if (m < 2 || run_calls(c->p, evs, pos + at[i], m, gap, cut, &repeats) == 1) {
			dev->runs_repeating += m >= 2 && repeats;
			continue;
		}
		for (j = 1; j < m; j++) {
			if (cut[j]) {
				struct an_exec *x = push_exec(c->out);

				if (!x)
					goto out;
				*x = c->out->execs[first + i];
				cur = (int32_t)(c->out->n - 1);
				dev->runs_execs++;
				dev->runs_split++;
			}
			ex_of[pos[at[i] + j]] = cur;
		}
	}
	ret = 0;
out:
	free(at);
	free(pos);
	free(gap);
	free(cut);
	free(fill);
	return ret;
}

static int cmp_exec_start(const void *a, const void *b)
{
	const struct an_exec *x = *(const struct an_exec *const *)a, *y = *(const struct an_exec *const *)b;

	if (x->start_ps != y->start_ps)
		return x->start_ps < y->start_ps ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Time of each execution of this plane from its events (ex_of), and the
 * executions put in start order (split runs were appended at the end).
 */
static int finish_execs(struct plane_ctx *c, size_t first, const struct ev_ref *evs, size_t n,
			int32_t *ex_of)
{
	size_t nx = c->out->n - first, i, k;
	struct merger *m = calloc(nx + 1, sizeof(*m));
	int64_t *end = xp_malloc_big(nx + 1, sizeof(*end));
	const struct an_exec **order = xp_malloc_big(nx + 1, sizeof(*order));
	struct an_exec *copy = xp_malloc_big(nx + 1, sizeof(*copy));
	int32_t *new_of = xp_malloc_big(nx + 1, sizeof(*new_of));
	int ret = XP_ERR_NOMEM;

	if (!m || !end || !order || !copy || !new_of)
		goto out;
	for (i = 0; i < nx; i++)
		c->out->execs[first + i].events = 0;
	for (k = 0; k < n; k++) {
		const struct xp_event *e = &c->p->events[evs[k].idx];
		struct an_exec *x;

		if (ex_of[k] < 0)
			continue;
		i = (size_t)ex_of[k] - first;
		x = &c->out->execs[first + i];
		if (!x->events++) {
			x->start_ps = e->start_ps;
			end[i] = e->start_ps + e->dur_ps;
		} else if (e->start_ps + e->dur_ps > end[i]) {
			end[i] = e->start_ps + e->dur_ps;
		}
		merger_add(&m[i], e->start_ps, e->start_ps + e->dur_ps);
	}
	for (i = 0; i < nx; i++) {
		struct an_exec *x = &c->out->execs[first + i];

		x->busy_ps = merger_total(&m[i]);
		x->span_ps = sat_sub(end[i], x->start_ps);
		order[i] = x;
	}
	qsort(order, nx, sizeof(*order), cmp_exec_start);
	for (i = 0; i < nx; i++) {
		copy[i] = *order[i];
		new_of[order[i] - &c->out->execs[first]] = (int32_t)(first + i);
	}
	if (nx)
		memcpy(&c->out->execs[first], copy, nx * sizeof(*copy));
	for (k = 0; k < n; k++)
		if (ex_of[k] >= 0)
			ex_of[k] = new_of[ex_of[k] - first];
	ret = 0;
out:
	free(m);
	free(end);
	free(order);
	free(copy);
	free(new_of);
	return ret;
}

/* Time t of plane p on the host time scale, if both fit. */
static int device_time(const struct plane_ctx *c, int64_t t, int64_t *out);

/*
 * What this device's events whose correlation_id only one launch has teach
 * (struct dev_link); nothing is learnt, and nothing allocated, when no id
 * repeats, as then nothing asks.
 */
static int learn_dev_link(struct plane_ctx *c, const struct ev_ref *evs, size_t n,
			  struct dev_link *dl)
{
	const struct host_link *h = c->host;
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
		const struct xp_event *e = &c->p->events[evs[k].idx];
		const struct xp_stat *cs = xp_event_stat(c->p, e, XP_K_CORRELATION_ID);
		const struct launch *l;
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
		if (!device_time(c, e->start_ps, &kt))
			continue;
		lag = sat_sub(kt, l->t);
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

/* Time t of plane p on the host time scale, if both fit. */
static int device_time(const struct plane_ctx *c, int64_t t, int64_t *out)
{
	return c->host->nplanes && !host_time(c->host, c->p, t, out);
}

static int scan_plane(struct plane_ctx *c)
{
	const struct xp_plane *p = c->p;
	struct an_device *dev = &c->out->devices[c->device];
	struct host_link *h = c->host;
	unsigned char *use = calloc(p->nlines + 1, 1);
	struct dev_link dl = {0};
	unsigned char *stray = xp_malloc_big(p->nevents + 1, 1);
	struct ev_ref *evs = xp_malloc_big(p->nevents + 1, sizeof(*evs));
	int32_t *owner = xp_malloc_big(p->nevents + 1, sizeof(*owner));
	int32_t *ex_of = NULL;		/* evs index -> exec index, or -1 */
	int32_t *by_host = NULL;	/* host exec index -> exec index */
	size_t first = c->out->n, i, n = 0, run_exec = SIZE_MAX;
	struct merger busy = {0}, unattributed = {0};
	struct xp_err serr = {0};
	int module_line, linkable, ret = 0;

	if (!use || !evs || !owner || !stray) {
		ret = XP_ERR_NOMEM;
		goto out;
	}
	/* Stray ends (xp_stray.h) among the device lines' events are left out and counted. */
	if (device_lines(p, use, &module_line) < 0 ||
	    xp_plane_stray_ends(p, use, stray, &dev->stray_events, &serr)) {
		ret = XP_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < p->nevents; i++) {
		const struct xp_event *e = &p->events[i];

		owner[i] = -1;
		if (!use[e->line] || stray[i])
			continue;
		if (e->dur_ps < c->o->min_dur_ps) {
			dev->dropped_short++;
			continue;
		}
		evs[n].start = e->start_ps;
		evs[n].idx = (uint32_t)i;
		n++;
	}
	if (xp_sort_by_i64(evs, n, sizeof(*evs), offsetof(struct ev_ref, start)))
		qsort(evs, n, sizeof(*evs), cmp_ev_ref);	/* as above: by start, then index */
	dev->events = n;
	dev->module_line = module_line >= 0;
	/*
	 * A second "XLA Modules" line is left out: whether it repeats the first
	 * or is another core's work, neither its executions nor a union with the
	 * first would be right for this device. Counted, for a warning.
	 */
	for (i = 0; module_line >= 0 && i < p->nlines; i++) {
		if (i != (size_t)module_line && !strcmp(p->lines[i].name, "XLA Modules")) {
			dev->extra_module_lines++;
			dev->extra_module_events += p->lines[i].nevents;
		}
	}
	/* Host planes are read only for a plane whose events name a function. */
	if (module_line < 0 && !c->host_built && any_module_event(p, evs, n)) {
		ret = host_link_build(c->t, h, c->err);
		c->host_built = 1;
		if (ret)
			goto out;
	}
	linkable = module_line < 0 && h->nlaunches && h->nhexecs;
	if (linkable) {
		by_host = malloc(h->nhexecs * sizeof(*by_host));
		if (!by_host || learn_dev_link(c, evs, n, &dl)) {
			ret = XP_ERR_NOMEM;
			goto out;
		}
		for (i = 0; i < h->nhexecs; i++)
			by_host[i] = -1;
	}
	ex_of = xp_malloc_big(n + 1, sizeof(*ex_of));
	if (!ex_of) {
		ret = XP_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct xp_event *e = &p->events[evs[i].idx];
		int64_t end = e->start_ps + e->dur_ps;
		struct an_exec probe = {0}, *x;
		size_t xi = SIZE_MAX, hk = 0, mlen;
		const char *module;
		int mk;

		ex_of[i] = -1;
		merger_add(&busy, e->start_ps, end);
		/*
		 * On stream lines only an hlo_module that names a function makes an
		 * event a function's; an XLA Modules event is an execution anyway,
		 * named by its own metadata when its hlo_module names nothing.
		 */
		mk = module_of(c, e, &module, &mlen);
		if (module_line < 0 && mk <= 0) {
			dev->unattributed_events++;
			merger_add(&unattributed, e->start_ps, end);
			continue;
		}
		ret = describe(c, e, mk > 0 ? module : NULL, mlen, &probe);
		if (ret)
			goto out;
		if (module_line < 0) {
			const struct xp_stat *cs = xp_event_stat(p, e, XP_K_CORRELATION_ID);
			uint64_t corr;
			int64_t kt = 0;
			int have_corr = cs && !xp_stat_u64(cs, &corr);

			if (cs && !have_corr)
				dev->odd_stats[XP_K_CORRELATION_ID]++;
			dev->corr_events += have_corr;
			if (linkable && have_corr) {
				int have_kt = device_time(c, e->start_ps, &kt);

				switch (host_link_find(h, corr, probe.name, &dl, have_kt, kt, &hk)) {
				case LINK_OK:
					dev->linked_events++;
					break;
				case LINK_NO_LAUNCH:
					dev->corr_no_launch++;
					break;
				case LINK_NO_EXECUTOR:
					dev->corr_no_executor++;
					break;
				case LINK_AMBIGUOUS:
					dev->corr_ambiguous++;
					break;
				}
			}
			if (hk && by_host[hk - 1] >= 0)
				xi = (size_t)by_host[hk - 1];
			else if (!hk && run_exec != SIZE_MAX &&
				 same_function(&c->out->execs[run_exec], &probe))
				xi = run_exec;
		}
		if (xi == SIZE_MAX) {
			x = push_exec(c->out);
			if (!x) {
				ret = XP_ERR_NOMEM;
				goto out;
			}
			*x = probe;
			x->device = c->device;
			x->split = module_line >= 0 ? AN_SPLIT_MODULE_LINE : hk ? AN_SPLIT_HOST : AN_SPLIT_RUNS;
			xi = c->out->n - 1;
			if (hk)
				by_host[hk - 1] = (int32_t)xi;
		}
		if (!hk && module_line < 0)
			run_exec = xi;
		ex_of[i] = (int32_t)xi;
	}
	dev->busy_ps = merger_total(&busy);
	dev->unattributed_busy_ps = merger_total(&unattributed);
	if (dev->corr_events && !linkable)
		dev->host_linkage = !h->nplanes ? AN_LINK_NO_HOST_PLANE
				    : !h->nlaunches && !h->nhexecs ? AN_LINK_NO_LAUNCHES_NO_EXECUTORS
				    : !h->nlaunches ? AN_LINK_NO_LAUNCHES : AN_LINK_NO_EXECUTORS;
	if (module_line < 0 && (ret = split_runs(c, first, evs, n, ex_of)))
		goto out;
	if ((ret = finish_execs(c, first, evs, n, ex_of)))
		goto out;
	if (c->o->children) {
		/*
		 * Only a module-line event is excluded from its own children: it spans
		 * the execution and would count itself. A GPU execution's kernels are
		 * the work --children measures, so they stay in.
		 */
		for (i = 0; module_line >= 0 && i < n; i++)
			owner[evs[i].idx] = ex_of[i];
		ret = add_children(c, first, owner);
	}
out:
	free(use);
	free(stray);
	free(evs);
	free(owner);
	free(ex_of);
	free(by_host);
	free(dl.lines);
	return ret;
}

int an_exec_find(struct xp_trace *t, const struct an_exec_opts *o,
		 struct an_exec_list *out, struct xp_err *err)
{
	struct host_link host = {0};
	struct xp_err why = {0};
	struct plane_ctx c = {.t = t, .err = &why, .o = o, .out = out, .host = &host};
	size_t pi, nd = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	xp_arena_init(&out->arena);
	out->hostname = t->nhostnames ? t->hostnames[0] : "";
	out->hostname = xp_arena_strndup(&out->arena, out->hostname, strlen(out->hostname));
	out->devices = calloc(t->nplanes + 1, sizeof(*out->devices));
	if (!out->devices || !out->hostname) {
		an_exec_list_release(out);
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		if (!an_is_device_plane(p->name))
			continue;
		if (o->device && !an_device_matches(p->name, o->device))
			continue;
		ret = xp_trace_load_plane(t, pi, &why);
		if (ret)
			break;
		/* Events on its lines of device work, as both readers see them. */
		if (!an_plane_device_events(p))
			continue;
		out->devices[nd].plane = (uint32_t)pi;
		out->devices[nd].name = xp_arena_strndup(&out->arena, p->name, strlen(p->name));
		if (!out->devices[nd].name) {
			ret = XP_ERR_NOMEM;
			break;
		}
		c.p = p;
		c.device = (uint32_t)nd;
		out->ndevices = ++nd;
		ret = scan_plane(&c);
		if (ret)
			break;
	}
	host_link_release(&host);
	if (!ret)
		return 0;
	an_exec_list_release(out);
	if (why.code) {
		*err = why;
		return ret;
	}
	return xp_err_set(err, ret, "out of memory");
}

void an_exec_list_release(struct an_exec_list *l)
{
	xp_arena_release(&l->arena);
	free(l->execs);
	free(l->devices);
	memset(l, 0, sizeof(*l));
}
