/* SPDX-License-Identifier: Apache-2.0 */
#include "an_callprog.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "xp_arena.h"
#include "xp_sort.h"

enum ev_kind { EV_PROGRAM, EV_CORR, EV_RUN };

/* A host event that names a program, directly or through a device event. */
struct evid {
	int64_t start;		/* on the calls' timeline */
	size_t line;
	uint64_t id;		/* EV_PROGRAM: the program; else the correlation or run id */
	const char *module;	/* EV_PROGRAM: its hlo_module (len modlen) */
	size_t modlen;
	int kind;
};

/* A device event's module and program, by the id a host event names it with. */
struct devrec {
	uint64_t id;
	const char *module;
	size_t modlen;
	uint64_t program;
};

struct devidx {
	struct devrec *corr, *run;	/* each sorted by id */
	size_t ncorr, nrun, capcorr, caprun;
	int built;
};

static int word_char(unsigned char c)
{
	/* JAX keeps [\w.-] in a module's name (\w: Unicode letters too) and writes '_' for the rest */
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '.' || c == '-' || c >= 0x80;
}

static int same_as_sanitised(const char *m, const char *fn, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (m[i] != fn[i] && !(m[i] == '_' && !word_char((unsigned char)fn[i])))
			return 0;
	return 1;
}

int an_module_names_fn(const char *module, size_t len, const char *fn, size_t fnlen)
{
	static const char *const prefixes[] = {"", "jit_", "pmap_"};
	size_t i, k;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		k = strlen(prefixes[i]);
		if (len == fnlen + k && !memcmp(module, prefixes[i], k) && same_as_sanitised(module + k, fn, fnlen))
			return 1;
	}
	return 0;
}

static const struct xp_stat *key_stat(const struct xp_plane *p, const struct xp_event *e, enum xp_key k)
{
	return p->kept_keys & (1u << k) ? xp_event_stat(p, e, k) : NULL;
}

static int is_host(const struct xp_plane *p)
{
	return !strncmp(p->name, "/host:", 6);
}

/* The evidence on host plane p, in start order. */
static int collect(const struct xp_plane *p, int64_t shift, struct evid **out, size_t *nout)
{
	struct evid *ev = NULL;
	size_t n = 0, cap = 0, li, i;

	for (li = 0; li < p->nlines; li++) {
		const struct xp_line *ln = &p->lines[li];

		for (i = 0; i < ln->nevents; i++) {
			const struct xp_event *e = &p->events[ln->first_event + i];
			const struct xp_stat *s;
			struct evid v = {e->start_ps + shift, li, 0, NULL, 0, EV_PROGRAM};

			if ((s = key_stat(p, e, XP_K_PROGRAM_ID)) && !an_stat_program_id(p, s, &v.id) &&
			    (s = key_stat(p, e, XP_K_HLO_MODULE)) && (v.module = xp_stat_str(p, s, &v.modlen)))
				v.kind = EV_PROGRAM;
			else if ((s = key_stat(p, e, XP_K_CORRELATION_ID)) && !xp_stat_u64(s, &v.id))
				v.kind = EV_CORR;
			else if ((s = key_stat(p, e, XP_K_RUN_ID)) && !xp_stat_u64(s, &v.id))
				v.kind = EV_RUN;
			else
				continue;
			if (n == cap && xp_grow(&ev, &cap, n, sizeof(*ev), 64)) {
				free(ev);
				return -1;
			}
			ev[n++] = v;
		}
	}
	if (n > 1 && xp_sort_by_i64(ev, n, sizeof(*ev), offsetof(struct evid, start))) {
		free(ev);
		return -1;
	}
	*out = ev;
	*nout = n;
	return 0;
}

/* First of recs[0..n) (sorted by id) with id, or n. */
static size_t first_rec(const struct devrec *recs, size_t n, uint64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (recs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int add_rec(struct devrec **recs, size_t *n, size_t *cap, const struct devrec *r)
{
	if (*n == *cap && xp_grow(recs, cap, *n, sizeof(**recs), 64))
		return -1;
	(*recs)[(*n)++] = *r;
	return 0;
}

/* Whether sorted ids[0..n) hold id. */
static int wanted(const uint64_t *ids, size_t n, uint64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ids[lo] == id;
}

/* An "XLA Modules" event ("jit_f(<fingerprint>)"): its module's name, and its program (stat or fingerprint). */
static int module_event(const struct xp_plane *p, const struct xp_event *e, struct devrec *r)
{
	const char *name = xp_event_name(p, e), *open = strrchr(name, '(');
	const struct xp_stat *s = key_stat(p, e, XP_K_PROGRAM_ID);
	size_t len = strlen(name);
	char *end;

	r->module = name;
	r->modlen = open && open > name && name[len - 1] == ')' ? (size_t)(open - name) : len;
	if (s && !an_stat_program_id(p, s, &r->program))
		return 0;
	if (r->modlen == len || len - r->modlen < 3 || open[1] < '0' || open[1] > '9')
		return -1;
	r->program = strtoull(open + 1, &end, 10);
	return end == name + len - 1 ? 0 : -1;
}

/* A device plane's events with a wanted correlation id (kernels...) or run id (XLA Modules). */
static int index_plane(struct devidx *x, const struct xp_plane *p, const uint64_t *corr, size_t ncorr,
		       const uint64_t *run, size_t nrun)
{
	size_t li, i;

	for (li = 0; li < p->nlines; li++) {
		const struct xp_line *ln = &p->lines[li];
		int modules = ln->name && !strcmp(ln->name, "XLA Modules");

		for (i = 0; i < ln->nevents; i++) {
			const struct xp_event *e = &p->events[ln->first_event + i];
			const struct xp_stat *s;
			struct devrec c = {0}, r = {0};

			if (ncorr && (s = key_stat(p, e, XP_K_CORRELATION_ID)) && !xp_stat_u64(s, &c.id) &&
			    wanted(corr, ncorr, c.id) && (s = key_stat(p, e, XP_K_PROGRAM_ID)) &&
			    !an_stat_program_id(p, s, &c.program) && (s = key_stat(p, e, XP_K_HLO_MODULE)) &&
			    (c.module = xp_stat_str(p, s, &c.modlen)) && add_rec(&x->corr, &x->ncorr, &x->capcorr, &c))
				return -1;
			if (modules && nrun && (s = key_stat(p, e, XP_K_RUN_ID)) && !xp_stat_u64(s, &r.id) &&
			    wanted(run, nrun, r.id) && !module_event(p, e, &r) &&
			    add_rec(&x->run, &x->nrun, &x->caprun, &r))
				return -1;
		}
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	return xp_cmp_u64(*(const uint64_t *)a, *(const uint64_t *)b);
}

/* The ids of one kind the evidence names, sorted. */
static uint64_t *ids_of(struct evid *const *ev, const size_t *nev, size_t nplanes, int kind, size_t *n)
{
	size_t k, i, m = 0;
	uint64_t *ids;

	for (k = 0; k < nplanes; k++)
		for (i = 0; i < nev[k]; i++)
			m += ev[k][i].kind == kind;
	if (!(ids = malloc((m + 1) * sizeof(*ids))))
		return NULL;
	m = 0;
	for (k = 0; k < nplanes; k++)
		for (i = 0; i < nev[k]; i++)
			if (ev[k][i].kind == kind)
				ids[m++] = ev[k][i].id;
	qsort(ids, m, sizeof(*ids), cmp_u64);
	*n = m;
	return ids;
}

/* Reads the device planes for the ids the evidence names. */
static int build_index(struct devidx *x, struct xp_trace *t, struct evid *const *ev, const size_t *nev,
		       struct xp_err *err)
{
	size_t ncorr = 0, nrun = 0, k;
	uint64_t *corr = ids_of(ev, nev, t->nplanes, EV_CORR, &ncorr);
	uint64_t *run = ids_of(ev, nev, t->nplanes, EV_RUN, &nrun);
	int ret = XP_ERR_NOMEM;

	x->built = 1;
	if (!corr || !run)
		goto out;
	for (k = 0; (ncorr || nrun) && k < t->nplanes; k++) {
		if (is_host(&t->planes[k]))
			continue;
		if ((ret = xp_trace_load_plane(t, k, err)))
			goto out;
		ret = XP_ERR_NOMEM;
		if (index_plane(x, &t->planes[k], corr, ncorr, run, nrun))
			goto out;
	}
	ret = XP_ERR_NOMEM;
	if (xp_sort_by_u64(x->corr, x->ncorr, sizeof(*x->corr), offsetof(struct devrec, id)) ||
	    xp_sort_by_u64(x->run, x->nrun, sizeof(*x->run), offsetof(struct devrec, id)))
		goto out;
	ret = 0;
out:
	if (ret == XP_ERR_NOMEM)
		xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	free(corr);
	free(run);
	return ret;
}

/* Folds a program of some module into *o when the module is named for the call's function. */
static void take(const struct devrec *r, const struct an_call_span *c, struct an_call_prog *o)
{
	if (!an_module_names_fn(r->module, r->modlen, c->fn, c->fnlen))
		return;
	if (o->state == AN_CALL_PROG_UNKNOWN) {
		o->state = AN_CALL_PROG_KNOWN;
		o->program = r->program;
	} else if (o->program != r->program) {
		o->state = AN_CALL_PROG_AMBIGUOUS;
	}
}

/* The programs one piece of evidence names for the call's function, folded into *o. */
static void consider(const struct evid *v, const struct devidx *x, const struct an_call_span *c,
		     struct an_call_prog *o)
{
	const struct devrec *recs = v->kind == EV_CORR ? x->corr : x->run;
	size_t n = v->kind == EV_CORR ? x->ncorr : x->nrun, i;

	if (v->kind == EV_PROGRAM) {
		struct devrec r = {v->id, v->module, v->modlen, v->id};

		take(&r, c, o);
		return;
	}
	for (i = first_rec(recs, n, v->id); i < n && recs[i].id == v->id; i++)
		take(&recs[i], c, o);
}

/* The call's program from the evidence of its plane, its own line first, out of *budget events looked at. */
static void resolve(const struct evid *ev, size_t n, const struct devidx *x, const struct an_call_span *c,
		    struct an_call_prog *o, size_t *budget)
{
	size_t lo = 0, hi = n, i;
	int own;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ev[mid].start < c->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	o->state = AN_CALL_PROG_UNKNOWN;
	for (own = 1; own >= 0 && o->state == AN_CALL_PROG_UNKNOWN; own--)
		for (i = lo; i < n && ev[i].start < c->end; i++) {
			if (!*budget) {
				o->state = AN_CALL_PROG_UNSEARCHED;
				return;
			}
			--*budget;
			if ((ev[i].line == c->line) == own)
				consider(&ev[i], x, c, o);
		}
}

/* Whether some evidence needs the device planes. */
static int needs_devices(struct evid *const *ev, const size_t *nev, size_t nplanes)
{
	size_t k, i;

	for (k = 0; k < nplanes; k++)
		for (i = 0; i < nev[k]; i++)
			if (ev[k][i].kind != EV_PROGRAM)
				return 1;
	return 0;
}

int an_call_programs(struct xp_trace *t, const int64_t *shift, const struct an_call_span *calls, size_t n,
		     size_t budget, struct an_call_prog *out, struct xp_err *err)
{
	struct evid **ev = calloc(t->nplanes + 1, sizeof(*ev));
	size_t *nev = calloc(t->nplanes + 1, sizeof(*nev)), i, k;
	struct devidx x = {0};
	int ret = XP_ERR_NOMEM;

	if (!ev || !nev)
		goto out;
	for (i = 0; i < n; i++)
		out[i].state = AN_CALL_PROG_UNKNOWN;
	/* the evidence of the planes that hold calls */
	for (i = 0; i < n; i++) {
		k = calls[i].plane;
		if (ev[k] || nev[k] == SIZE_MAX)
			continue;
		if (collect(&t->planes[k], shift[k], &ev[k], &nev[k]))
			goto out;
		if (!ev[k])
			nev[k] = SIZE_MAX;	/* looked at: none */
	}
	for (k = 0; k < t->nplanes; k++)
		if (nev[k] == SIZE_MAX)
			nev[k] = 0;
	if (n && needs_devices(ev, nev, t->nplanes) && (ret = build_index(&x, t, ev, nev, err)))
		goto out;
	for (i = 0; i < n; i++)
		resolve(ev[calls[i].plane], nev[calls[i].plane], &x, &calls[i], &out[i], &budget);
	ret = 0;
out:
	if (ret == XP_ERR_NOMEM)
		xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (k = 0; ev && k < t->nplanes; k++)
		free(ev[k]);
	free(ev);
	free(nev);
	free(x.corr);
	free(x.run);
	return ret;
}
