/* SPDX-License-Identifier: Apache-2.0 */
#include "an_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_device.h"
#include "xp_sort.h"

/* One thunk of the host plane. */
struct thunk {
	const char *op, *mod;
	size_t op_len, mod_len;
	uint64_t program, run;
	int has_program;
	int has_run;		/* 1: run_id; 2: run is the executable call holding it (no run_id); 0: neither */
	uint32_t line;		/* the host line (thread) */
	int64_t start, end;
	size_t exec;		/* its execution, once grouped */
	uint32_t meta;		/* its event metadata in the plane made */
};

/* A string key stat of e, or NULL. */
static const char *str_of(const struct xp_plane *p, const struct xp_event *e, enum xp_key k, size_t *len)
{
	const struct xp_stat *s = xp_event_stat(p, e, k);

	return s ? xp_stat_str(p, s, len) : NULL;
}

/* A program id: an integer stat, or a string of 1 to 19 digits. */
static int u64_of(const struct xp_plane *p, const struct xp_event *e, enum xp_key k, uint64_t *v)
{
	const struct xp_stat *s = xp_event_stat(p, e, k);
	const char *str;
	size_t len, i;

	if (!s)
		return 0;
	if (!xp_stat_u64(s, v))
		return s->type != XP_STAT_INT64 || s->v.i >= 0;
	if (!(str = xp_stat_str(p, s, &len)) || !len || len > 19)
		return 0;
	for (*v = 0, i = 0; i < len; i++) {
		if (str[i] < '0' || str[i] > '9')
			return 0;
		*v = *v * 10 + (uint64_t)(str[i] - '0');
	}
	return 1;
}

static int cmp_str(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	return c ? c : (na > nb) - (na < nb);
}

/* By (module, program, run), then start: an execution's thunks together, in time. */
static int cmp_exec(const void *pa, const void *pb)
{
	const struct thunk *a = *(const struct thunk *const *)pa, *b = *(const struct thunk *const *)pb;
	int c;

	if ((c = cmp_str(a->mod, a->mod_len, b->mod, b->mod_len)) || (c = a->has_program - b->has_program) ||
	    (c = xp_cmp_u64(a->program, b->program)) || (c = a->has_run - b->has_run) ||
	    (c = xp_cmp_u64(a->run, b->run)) || (c = xp_cmp_i64(a->start, b->start)))
		return c;
	return (a > b) - (a < b);
}

static int same_key(const struct thunk *a, const struct thunk *b)
{
	return !cmp_str(a->mod, a->mod_len, b->mod, b->mod_len) && a->has_program == b->has_program &&
	       a->program == b->program && a->has_run == b->has_run && a->run == b->run;
}

/* By name: one event metadata per distinct op. */
static int cmp_op(const void *pa, const void *pb)
{
	const struct thunk *a = *(const struct thunk *const *)pa, *b = *(const struct thunk *const *)pb;

	return cmp_str(a->op, a->op_len, b->op, b->op_len);
}

/* By (line, start): the ops lines' events in time. */
static int cmp_line(const void *pa, const void *pb)
{
	const struct thunk *a = *(const struct thunk *const *)pa, *b = *(const struct thunk *const *)pb;
	int c;

	if ((c = xp_cmp_u64(a->line, b->line)) || (c = xp_cmp_i64(a->start, b->start)))
		return c;
	return xp_cmp_i64(b->end, a->end);	/* the longer first: it is the parent */
}

int an_cpu_wants_host_event(const char *name)
{
	return !strcmp(name, "PjRtCpuExecutable::ExecuteHelper") || !strcmp(name, "TfrtCpuExecutable::ExecuteHelper");
}

struct span {
	int64_t s, e;
};

/* Whether call c holds a thunk starting at t (a zero-length call at t holds it too). */
static int holds(const struct span *c, int64_t t)
{
	return c->e > t || (c->e == t && c->s == t);
}

static int cmp_start(const void *pa, const void *pb)
{
	const struct thunk *a = *(const struct thunk *const *)pa, *b = *(const struct thunk *const *)pb;

	return xp_cmp_i64(a->start, b->start);
}

/*
 * Thunks without a run_id: the executable call (an_cpu_wants_host_event)
 * that holds each one's start, the latest-starting of those that do,
 * becomes its run (has_run 2); calls are spans sorted by start. One sweep
 * in time order with a stack of the calls begun: a call that does not
 * hold a thunk holds none after it.
 */
static int runs_by_calls(struct thunk *v, size_t n, const struct span *calls, size_t ncalls)
{
	struct thunk **by = malloc((n + 1) * sizeof(*by));
	size_t *stack = malloc((ncalls + 1) * sizeof(*stack));
	size_t i, k = 0, next = 0, sp = 0;

	if (!by || !stack) {
		free(by);
		free(stack);
		return XP_ERR_NOMEM;
	}
	for (i = 0; i < n; i++)
		if (!v[i].has_run)
			by[k++] = &v[i];
	qsort(by, k, sizeof(*by), cmp_start);
	for (i = 0; i < k; i++) {
		int64_t t = by[i]->start;

		while (next < ncalls && calls[next].s <= t)
			stack[sp++] = next++;
		while (sp && !holds(&calls[stack[sp - 1]], t))
			sp--;
		if (sp) {
			by[i]->has_run = 2;
			by[i]->run = stack[sp - 1];
		}
	}
	free(by);
	free(stack);
	return 0;
}

/* The host plane's thunks into *out (*n of them). */
static int collect(const struct xp_plane *hp, struct thunk **out, size_t *n)
{
	struct thunk *v = calloc(hp->nevents + 1, sizeof(*v));
	struct span *calls = calloc(hp->nevents + 1, sizeof(*calls));
	size_t i, k = 0, ncalls = 0;

	if (!v || !calls) {
		free(v);
		free(calls);
		return XP_ERR_NOMEM;
	}
	for (i = 0; i < hp->nevents; i++) {
		const struct xp_event *e = &hp->events[i];
		struct thunk *t = &v[k];

		if (!strncmp(xp_event_name(hp, e), "end: ", 5))
			continue;	/* the end marker of a thunk, not one */
		if (an_cpu_wants_host_event(xp_event_name(hp, e))) {
			calls[ncalls].s = e->start_ps;
			calls[ncalls++].e = e->start_ps + e->dur_ps;
			continue;
		}
		if (!(t->op = str_of(hp, e, XP_K_HLO_OP, &t->op_len)) || !t->op_len ||
		    !(t->mod = str_of(hp, e, XP_K_HLO_MODULE, &t->mod_len)) || !t->mod_len ||
		    t->mod_len > UINT32_MAX)
			continue;
		t->has_program = u64_of(hp, e, XP_K_PROGRAM_ID, &t->program);
		t->has_run = u64_of(hp, e, XP_K_RUN_ID, &t->run);
		t->line = e->line;
		t->start = e->start_ps;
		t->end = e->start_ps + e->dur_ps;	/* xp_plane_finish keeps it in int64 */
		k++;
	}
	if (xp_sort_by_i64(calls, ncalls, sizeof(*calls), offsetof(struct span, s))) {
		free(v);
		free(calls);
		return XP_ERR_NOMEM;
	}
	if (runs_by_calls(v, k, calls, ncalls)) {
		free(v);
		free(calls);
		return XP_ERR_NOMEM;
	}
	free(calls);
	*out = v;
	*n = k;
	return 0;
}

/*
 * Executions: the thunks of one (module, program, run); with no run id
 * and no executable call around them, a key's thunks split where none of
 * them runs (each thunk starting after every earlier one ended begins
 * another). Each thunk's exec set; returns how many.
 */
static size_t group(struct thunk **by, size_t n)
{
	size_t i, nexec = 0;
	int64_t reach = 0;

	qsort(by, n, sizeof(*by), cmp_exec);
	for (i = 0; i < n; i++) {
		struct thunk *t = by[i];

		if (!i || !same_key(t, by[i - 1]) || (!t->has_run && t->start > reach)) {
			nexec++;
			reach = t->end;
		}
		if (t->end > reach)
			reach = t->end;
		t->exec = nexec - 1;
	}
	return nexec;
}

/* The plane made from n thunks (by: pointers to them) in nexec executions. */
static int make_plane(struct xp_trace *t, const struct xp_plane *hp, struct thunk **by, size_t n, size_t nexec,
		      struct xp_plane *pl, struct xp_err *err)
{
	struct xp_arena *a = &t->arena;
	struct xp_event *me;
	int64_t *lo = calloc(nexec + 1, sizeof(*lo)), *hi = calloc(nexec + 1, sizeof(*hi));
	const struct thunk **first = calloc(nexec + 1, sizeof(*first));
	size_t i, k, nops = 0, nlines = 1, meta, nstats = 0;
	struct xp_read_counts none = {0};
	int ret = XP_ERR_NOMEM;

	if (!lo || !hi || !first)
		goto out;
	for (i = 0; i < n; i++)
		nstats += 1 + by[i]->has_program;
	for (i = 0; i < n; i++) {
		const struct thunk *th = by[i];

		if (!first[th->exec] || th->start < lo[th->exec])
			lo[th->exec] = th->start;
		if (!first[th->exec] || th->end > hi[th->exec])
			hi[th->exec] = th->end;
		if (!first[th->exec])
			first[th->exec] = th;
	}
	/* op metadata: one per distinct name, ids 1..; the modules' after them */
	qsort(by, n, sizeof(*by), cmp_op);
	for (i = 0; i < n; i++)
		nops += !i || cmp_op(&by[i - 1], &by[i]);
	memset(pl, 0, sizeof(*pl));
	pl->evmetas = xp_arena_alloc(a, (nops + nexec + 1) * sizeof(*pl->evmetas));
	pl->events = xp_arena_alloc(a, (n + nexec + 1) * sizeof(*pl->events));
	pl->stats = xp_arena_alloc(a, (nstats + 1) * sizeof(*pl->stats));
	/* an op names its own module and program: executions of two programs may overlap in time */
	pl->statmetas = xp_arena_alloc(a, 3 * sizeof(*pl->statmetas));
	if (!pl->evmetas || !pl->events || !pl->stats || !pl->statmetas)
		goto out;
	pl->statmetas[0].id = 1;
	pl->statmetas[0].name = "hlo_module";
	pl->statmetas[1].id = 2;
	pl->statmetas[1].name = "program_id";
	pl->nstatmetas = 2;
	memset(pl->evmetas, 0, (nops + nexec + 1) * sizeof(*pl->evmetas));
	for (i = 0, meta = 0; i < n; i++) {
		if (!i || cmp_op(&by[i - 1], &by[i])) {	/* a name not seen before */
			struct xp_evmeta *m = &pl->evmetas[meta++];

			m->id = (int64_t)meta;
			if (!(m->name = m->display_name = xp_arena_strndup(a, by[i]->op, by[i]->op_len)))
				goto out;
		}
		by[i]->meta = (uint32_t)(meta - 1);
	}
	for (k = 0; k < nexec; k++) {
		const struct thunk *th = first[k];
		struct xp_evmeta *m = &pl->evmetas[nops + k];
		char num[32] = "";

		m->id = (int64_t)(nops + k + 1);
		if (th->has_program)
			snprintf(num, sizeof(num), "(%llu)", (unsigned long long)th->program);
		else if (th->mod_len && th->mod[th->mod_len - 1] == ')')
			strcpy(num, " ");	/* no "(digits)" read as a program it does not have */
		if (!(m->name = xp_arena_alloc(a, th->mod_len + strlen(num) + 1)))
			goto out;
		memcpy((char *)m->name, th->mod, th->mod_len);
		strcpy((char *)m->name + th->mod_len, num);
		m->display_name = m->name;
	}
	pl->nevmetas = nops + nexec;
	/* lines: XLA Modules, then an XLA Ops line per thread in the host plane's order */
	qsort(by, n, sizeof(*by), cmp_line);
	for (i = 1; i < n; i++)
		nlines += by[i]->line != by[i - 1]->line;
	nlines += n > 0;
	if (!(pl->lines = xp_arena_alloc(a, (nlines + 1) * sizeof(*pl->lines))))
		goto out;
	memset(pl->lines, 0, (nlines + 1) * sizeof(*pl->lines));
	pl->lines[0].name = "XLA Modules";
	pl->lines[0].display_name = "";
	pl->lines[0].timestamp_ns = hp->base_ns;
	pl->lines[0].nevents = nexec;
	me = pl->events;
	for (k = 0; k < nexec; k++) {
		me[k].start_ps = lo[k];
		if (__builtin_sub_overflow(hi[k], lo[k], &me[k].dur_ps)) {
			ret = xp_err_set(err, XP_ERR_LIMIT, "plane '/host:CPU': the XLA:CPU thunks of one execution of "
					 "'%s' span more than int64 picoseconds", pl->evmetas[nops + k].name);
			goto out;
		}
		me[k].meta = (uint32_t)(nops + k);
		me[k].line = 0;
	}
	if (xp_sort_by_i64(me, nexec, sizeof(*me), offsetof(struct xp_event, start_ps)))
		goto out;
	for (i = 0, k = 0; i < n; i++) {
		struct xp_event *e = &pl->events[nexec + i];

		if (!i || by[i]->line != by[i - 1]->line) {
			struct xp_line *l = &pl->lines[++k];

			l->id = (int64_t)k;
			l->name = "XLA Ops";
			if (!(l->display_name = xp_arena_strndup(a, hp->lines[by[i]->line].name,
							  strlen(hp->lines[by[i]->line].name))))
				goto out;
			l->timestamp_ns = hp->base_ns;
			l->first_event = nexec + i;
		}
		pl->lines[k].nevents++;
		e->start_ps = by[i]->start;
		e->dur_ps = by[i]->end - by[i]->start;
		e->meta = by[i]->meta;
		e->line = (uint32_t)k;
		e->stats_first = (uint32_t)pl->nstats;
		e->nstats = 1 + (uint32_t)by[i]->has_program;
		pl->stats[pl->nstats].meta_id = 1;
		pl->stats[pl->nstats].type = XP_STAT_STR;
		if (!(pl->stats[pl->nstats].v.s.p = xp_arena_strndup(a, by[i]->mod, by[i]->mod_len)))
			goto out;
		pl->stats[pl->nstats++].v.s.len = (uint32_t)by[i]->mod_len;
		if (by[i]->has_program) {
			pl->stats[pl->nstats].meta_id = 2;
			pl->stats[pl->nstats].type = XP_STAT_UINT64;
			pl->stats[pl->nstats++].v.u = by[i]->program;
		}
	}
	pl->nlines = nlines;
	pl->nevents = n + nexec;
	pl->base_ns = hp->base_ns;
	pl->name = AN_CPU_PLANE;
	pl->loaded = 1;
	ret = xp_plane_index_metadata(pl, a, &none, err);
out:
	if (ret == XP_ERR_NOMEM)
		xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	free(lo);
	free(hi);
	free(first);
	return ret;
}

/* The host plane XLA:CPU writes to, SIZE_MAX when t has a device plane or none such. */
static size_t host_plane(const struct xp_trace *t)
{
	size_t i, host = SIZE_MAX;

	for (i = 0; i < t->nplanes; i++) {
		if (an_is_device_plane(t->planes[i].name))
			return SIZE_MAX;	/* a device's own work: no stand-in */
		if (host == SIZE_MAX && !strcmp(t->planes[i].name, "/host:CPU"))
			host = i;
	}
	return host;
}

int an_cpu_needs_read(const struct xp_trace *t)
{
	size_t host = host_plane(t);
	const struct xp_plane *hp = host == SIZE_MAX ? NULL : &t->planes[host];

	return hp && hp->loaded && (hp->events_released || (hp->kept_keys & AN_CPU_KEYS) != AN_CPU_KEYS);
}

/* For the view of a deferred host plane: every event (the thunks are told by their stats). */
static int any_event(const char *name)
{
	(void)name;
	return 1;
}

int an_cpu_device(struct xp_trace *t, struct an_cpu_made *made, struct xp_err *err)
{
	struct xp_plane view, *planes;
	const struct xp_plane *hp = &view;
	struct thunk *v = NULL, **by = NULL;
	size_t i, n = 0, nexec, host = host_plane(t);
	int64_t id = 0;
	int ret;

	memset(made, 0, sizeof(*made));
	if (host == SIZE_MAX)
		return 0;
	/* deferred: a view with every event and the thunks' keys; read already: as it was */
	if ((ret = xp_trace_view_plane(t, host, any_event, AN_CPU_KEYS, &view, err)))
		return ret;
	if (hp->events_released || (hp->kept_keys & AN_CPU_KEYS) != AN_CPU_KEYS)
		return 0;	/* read without what the thunks are told by: an_cpu_needs_read says so first */
	for (i = 0; i < t->nplanes; i++)
		if (t->planes[i].id >= id)
			id = t->planes[i].id + 1;
	if ((ret = collect(hp, &v, &n)))
		return xp_err_set(err, ret, "out of memory");
	if (!n) {
		free(v);
		return 0;
	}
	if (!(by = malloc(n * sizeof(*by)))) {
		free(v);
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	for (i = 0; i < n; i++)
		by[i] = &v[i];
	nexec = group(by, n);
	planes = xp_arena_alloc(&t->arena, (t->nplanes + 2) * sizeof(*planes));
	if (!planes) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	memcpy(planes, t->planes, t->nplanes * sizeof(*planes));
	memset(&planes[t->nplanes], 0, 2 * sizeof(*planes));
	if ((ret = make_plane(t, hp, by, n, nexec, &planes[t->nplanes], err)))
		goto out;
	planes[t->nplanes].id = id;
	t->planes = planes;
	t->nplanes++;
	made->thunks = n;
	made->executions = nexec;
out:
	free(v);
	free(by);
	return ret;
}
