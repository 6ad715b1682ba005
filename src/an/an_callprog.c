/* SPDX-License-Identifier: Apache-2.0 */
#include "an_callprog.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "an_device.h"
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
	int64_t ordinal;	/* EV_RUN: the device_ordinal it enqueues for; -1: none given */
};

/* A device event's module and program, by the id a host event names it with. */
struct devrec {
	uint64_t id;
	const char *module;
	size_t modlen;
	uint64_t program;
	int64_t ordinal;	/* run records: the number ending the device plane's name; -1: none */
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

/* An event and its own stats, as the model keeps them or read again from the input (XP_EVSTATS_INPUT). */
struct ev_stats {
	const struct xp_plane *p;
	const struct xp_event *e;
	const struct xp_stat *own;
};

/* The event's stat of key k, its own first, then its metadata's; NULL where the read kept neither. */
static const struct xp_stat *key_stat(const struct ev_stats *x, enum xp_key k)
{
	const struct xp_plane *p = x->p;
	const struct xp_evmeta *m;
	uint32_t i;

	if (p->kept_keys >> k & 1)
		return xp_event_stat(p, x->e, k);
	if (!p->stats_at || !p->has_key[k])	/* not kept, and not in the input either */
		return NULL;
	for (i = 0; i < x->e->nstats; i++)
		if (x->own[i].meta_id == p->key_id[k])
			return &x->own[i];
	m = &p->evmetas[x->e->meta];
	for (i = 0; i < m->nstats; i++)
		if (p->stats[m->stats_first + i].meta_id == p->key_id[k])
			return &p->stats[m->stats_first + i];
	return NULL;
}

/* Room for an event's own stats read again from p's input (xp_event_own_stats). */
static struct xp_stat *own_room(const struct xp_plane *p)
{
	return malloc(((size_t)p->max_own_stats + 1) * sizeof(struct xp_stat));
}

static int is_host(const struct xp_plane *p)
{
	return !strncmp(p->name, "/host:", 6);
}

/* A time span of calls, [start, end). */
struct span {
	int64_t start, end;
};

/*
 * Whether t lies in one of the sorted, disjoint spans sp[0..n); *at is the
 * first span ending after the last t asked, so that times asked in order
 * (a line's events, mostly) cost a step each, not a search.
 */
static int in_spans(const struct span *sp, size_t n, int64_t t, size_t *at)
{
	size_t lo = 0, hi = n;

	if (*at < n && sp[*at].end > t && (!*at || sp[*at - 1].end <= t))
		return sp[*at].start <= t;
	if (*at + 1 < n && sp[*at].end <= t && sp[*at + 1].end > t) {
		++*at;
		return sp[*at].start <= t;
	}
	while (lo < hi) {	/* the first span ending after t */
		size_t mid = lo + (hi - lo) / 2;

		if (sp[mid].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < n && sp[lo].start <= t;
}

/*
 * The evidence on host plane p that starts inside one of the calls' spans
 * sp[0..nsp) (sorted, disjoint), in start order: only those events' stats
 * are looked at, which the read may have left in the input.
 */
static int collect(const struct xp_plane *p, int64_t shift, const struct span *sp, size_t nsp,
		   struct evid **out, size_t *nout)
{
	struct evid *ev = NULL;
	struct xp_stat *room = own_room(p);
	size_t n = 0, cap = 0, li, i;
	uint64_t u;
	int ret = -1;

	if (!room)
		goto out;
	for (li = 0; li < p->nlines; li++) {
		const struct xp_line *ln = &p->lines[li];
		size_t at = 0;

		for (i = 0; i < ln->nevents; i++) {
			struct ev_stats x = {p, &p->events[ln->first_event + i], NULL};
			const struct xp_stat *s;
			struct evid v = {x.e->start_ps + shift, li, 0, NULL, 0, EV_PROGRAM, -1};

			if ((!x.e->nstats && !p->evmetas[x.e->meta].nstats) || !in_spans(sp, nsp, v.start, &at))
				continue;
			x.own = xp_event_own_stats(p, x.e, room);
			if ((s = key_stat(&x, XP_K_PROGRAM_ID)) && !an_stat_program_id(p, s, &v.id) &&
			    (s = key_stat(&x, XP_K_HLO_MODULE)) && (v.module = xp_stat_str(p, s, &v.modlen)))
				v.kind = EV_PROGRAM;
			else if ((s = key_stat(&x, XP_K_CORRELATION_ID)) && !xp_stat_u64(s, &v.id))
				v.kind = EV_CORR;
			else if ((s = key_stat(&x, XP_K_RUN_ID)) && !xp_stat_u64(s, &v.id))
				v.kind = EV_RUN;
			else
				continue;
			if (v.kind == EV_RUN && (s = key_stat(&x, XP_K_DEVICE_ORDINAL)) &&
			    !xp_stat_u64(s, &u) && u <= INT64_MAX)
				v.ordinal = (int64_t)u;
			if (n == cap && xp_grow(&ev, &cap, n, sizeof(*ev), 64))
				goto out;
			ev[n++] = v;
		}
	}
	if (n > 1 && xp_sort_by_i64(ev, n, sizeof(*ev), offsetof(struct evid, start)))
		goto out;
	*out = ev;
	*nout = n;
	ev = NULL;
	ret = 0;
out:
	free(ev);
	free(room);
	return ret;
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
	size_t i = xp_lower_bound_u64(ids, n, sizeof(*ids), 0, id);

	return i < n && ids[i] == id;
}

/* An "XLA Modules" event ("jit_f(<fingerprint>)"): its module's name, and its program (stat or fingerprint). */
static int module_event(const struct ev_stats *x, struct devrec *r)
{
	const struct xp_plane *p = x->p;
	const char *name = xp_event_name(p, x->e), *open = strrchr(name, '('), *digit;
	const struct xp_stat *s = key_stat(x, XP_K_PROGRAM_ID);
	size_t len = strlen(name);

	r->module = name;
	r->modlen = open && open > name && name[len - 1] == ')' ? (size_t)(open - name) : len;
	if (s && !an_stat_program_id(p, s, &r->program))
		return 0;
	/* the fingerprint: digits of a uint64 */
	if (r->modlen == len || len - r->modlen < 3)
		return -1;
	r->program = 0;
	for (digit = open + 1; digit < name + len - 1; digit++) {
		uint64_t d = (uint64_t)(*digit - '0');

		if (*digit < '0' || *digit > '9' || r->program > (UINT64_MAX - d) / 10)
			return -1;
		r->program = r->program * 10 + d;
	}
	return 0;
}

/* The number ending a device plane's name ("/device:TPU:3": 3), the device_ordinal enqueues name it by; -1: none. */
static int64_t plane_ordinal(const char *name)
{
	size_t len = strlen(name), i = len;
	int64_t v = 0;

	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9' && len - i < 18)
		i--;
	if (i == len || i == 0 || name[i - 1] != ':')
		return -1;
	for (; i < len; i++)
		v = v * 10 + (name[i] - '0');
	return v;
}

/*
 * Of a device plane, the lines whose events name programs by id: XLA
 * Modules, and the lines XProf does not derive (a GPU's streams). Only
 * these are looked at, however much of the plane was read.
 */
static int indexed_line(const char *name)
{
	return name && (!strcmp(name, "XLA Modules") || !an_is_derived_line(name));
}

static void index_lines(const char *plane, const char *const *names, size_t n, unsigned char *want, void *ctx)
{
	size_t i;

	(void)plane;
	(void)ctx;
	for (i = 0; i < n; i++)
		want[i] = indexed_line(names[i]);
}

/* A device plane's events with a wanted correlation id (kernels...) or run id (XLA Modules). */
static int index_plane(struct devidx *x, const struct xp_plane *p, const uint64_t *corr, size_t ncorr,
		       const uint64_t *run, size_t nrun)
{
	struct xp_stat *room = own_room(p);
	size_t li, i;
	int64_t ordinal = plane_ordinal(p->name);
	int ret = -1;

	if (!room)
		return -1;
	for (li = 0; li < p->nlines; li++) {
		const struct xp_line *ln = &p->lines[li];
		int modules = ln->name && !strcmp(ln->name, "XLA Modules");

		for (i = 0; indexed_line(ln->name) && i < ln->nevents; i++) {
			struct ev_stats e = {p, &p->events[ln->first_event + i], NULL};
			const struct xp_stat *s;
			struct devrec c = {0}, r = {.ordinal = ordinal};

			if (!e.e->nstats && !p->evmetas[e.e->meta].nstats)
				continue;
			e.own = xp_event_own_stats(p, e.e, room);
			if (ncorr && (s = key_stat(&e, XP_K_CORRELATION_ID)) && !xp_stat_u64(s, &c.id) &&
			    wanted(corr, ncorr, c.id) && (s = key_stat(&e, XP_K_PROGRAM_ID)) &&
			    !an_stat_program_id(p, s, &c.program) && (s = key_stat(&e, XP_K_HLO_MODULE)) &&
			    (c.module = xp_stat_str(p, s, &c.modlen)) && add_rec(&x->corr, &x->ncorr, &x->capcorr, &c))
				goto out;
			if (modules && nrun && (s = key_stat(&e, XP_K_RUN_ID)) && !xp_stat_u64(s, &r.id) &&
			    wanted(run, nrun, r.id) && !module_event(&e, &r) &&
			    add_rec(&x->run, &x->nrun, &x->caprun, &r))
				goto out;
		}
	}
	ret = 0;
out:
	free(room);
	return ret;
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


/* Reads the device planes for the ids the evidence names (of each, the lines index_lines keeps). */
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
		if ((ret = xp_trace_load_plane_lines(t, k, index_lines, NULL, err)))
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
		struct devrec r = {v->id, v->module, v->modlen, v->id, -1};

		take(&r, c, o);
		return;
	}
	for (i = xp_lower_bound_u64(recs, n, sizeof(*recs), offsetof(struct devrec, id), v->id);
	     i < n && recs[i].id == v->id; i++)
		if (v->kind != EV_RUN || v->ordinal < 0 || recs[i].ordinal < 0 || v->ordinal == recs[i].ordinal)
			take(&recs[i], c, o);
}

/* One trace's search: the evidence of its planes, the device index once needed, the budget left. */
struct search {
	struct xp_trace *t;
	struct evid **ev;
	size_t *nev;
	struct devidx x;
	size_t budget;
	struct xp_err *err;
};

/*
 * The call's program from the evidence of its plane, in three steps until
 * one names it (an_callprog.h): on its own line the launches naming their
 * program, then those naming it through a device event (the device planes
 * read then, once); on the plane's other lines the launches naming their
 * program. Each step walks the call's events: the budget counts them. 0,
 * or an error of reading the device planes.
 */
static int resolve(struct search *s, const struct an_call_span *c, struct an_call_prog *o)
{
	const struct evid *ev = s->ev[c->plane];
	size_t n = s->nev[c->plane], i;
	size_t lo = xp_lower_bound_i64(ev, n, sizeof(*ev), offsetof(struct evid, start), c->start);
	int step, ret;

	o->state = AN_CALL_PROG_UNKNOWN;
	for (step = 0; step < 3 && o->state == AN_CALL_PROG_UNKNOWN; step++) {
		int own = step < 2, direct = !(step & 1);

		for (i = lo; i < n && ev[i].start < c->end; i++) {
			if (!s->budget) {
				o->state = AN_CALL_PROG_UNSEARCHED;
				return 0;
			}
			s->budget--;
			if ((ev[i].line == c->line) != own || (ev[i].kind == EV_PROGRAM) != direct)
				continue;
			if (!direct && !s->x.built && (ret = build_index(&s->x, s->t, s->ev, s->nev, s->err)))
				return ret;
			consider(&ev[i], &s->x, c, o);
		}
	}
	return 0;
}

/* The evidence of host plane k inside its calls (among calls[0..n)). */
static int plane_evidence(const struct xp_trace *t, size_t k, int64_t shift, const struct an_call_span *calls,
			  size_t n, struct evid **out, size_t *nout)
{
	struct span *sp = malloc((n + 1) * sizeof(*sp));
	size_t i, m = 0, u = 0;
	int ret;

	if (!sp)
		return -1;
	for (i = 0; i < n; i++)
		if (calls[i].plane == k && calls[i].end > calls[i].start)
			sp[m++] = (struct span){calls[i].start, calls[i].end};
	if (m > 1 && xp_sort_by_i64(sp, m, sizeof(*sp), offsetof(struct span, start))) {
		free(sp);
		return -1;
	}
	for (i = 1; i < m; i++) {	/* merged where they overlap or touch */
		if (sp[i].start <= sp[u].end) {
			if (sp[i].end > sp[u].end)
				sp[u].end = sp[i].end;
		} else {
			sp[++u] = sp[i];
		}
	}
	ret = collect(&t->planes[k], shift, sp, m ? u + 1 : 0, out, nout);
	free(sp);
	return ret;
}

int an_call_programs(struct xp_trace *t, const int64_t *shift, const struct an_call_span *calls, size_t n,
		     size_t budget, struct an_call_prog *out, struct xp_err *err)
{
	struct search s = {t, calloc(t->nplanes + 1, sizeof(*s.ev)), calloc(t->nplanes + 1, sizeof(*s.nev)),
			   {0}, budget, err};
	size_t i, k;
	int ret = XP_ERR_NOMEM;

	if (!s.ev || !s.nev)
		goto out;
	for (i = 0; i < n; i++)
		out[i].state = AN_CALL_PROG_UNKNOWN;
	/* the evidence of the planes that hold calls, inside them */
	for (i = 0; i < n; i++) {
		k = calls[i].plane;
		if (s.ev[k] || s.nev[k] == SIZE_MAX)
			continue;
		if (plane_evidence(t, k, shift[k], calls, n, &s.ev[k], &s.nev[k]))
			goto out;
		if (!s.ev[k])
			s.nev[k] = SIZE_MAX;	/* looked at: none */
	}
	for (k = 0; k < t->nplanes; k++)
		if (s.nev[k] == SIZE_MAX)
			s.nev[k] = 0;
	ret = 0;
	for (i = 0; i < n && !ret; i++)
		ret = resolve(&s, &calls[i], &out[i]);
out:
	if (ret == XP_ERR_NOMEM)
		xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (k = 0; s.ev && k < t->nplanes; k++)
		free(s.ev[k]);
	free(s.ev);
	free(s.nev);
	free(s.x.corr);
	free(s.x.run);
	return ret;
}
