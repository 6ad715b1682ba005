#include "an_exec.h"

#include <ctype.h>
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

/* --- host linkage: device correlation_id -> launch -> enclosing ExecuteThunks ---------- */

/*
 * Launches (host events with a correlation_id) run on API or callback threads;
 * the ExecuteThunks events (with a module_name stat) run on executor threads,
 * one per device in multi-device runs, and those overlap in time. So each
 * launch line is first paired with the executor line that encloses most of
 * its launches, and a launch is then resolved only on that line.
 */
struct launch {
	uint64_t corr;
	int64_t start;
	uint32_t line;		/* index into host_link.lines */
};

struct host_exec {
	const char *module;
	uint32_t line;		/* index into host_link.lines */
	int64_t start, end;
	int64_t max_end;	/* the largest end among this and earlier entries of the line */
};

struct host_link {
	struct launch *launches;
	size_t nlaunches;
	struct host_exec *hexecs;	/* by (line, start) */
	size_t nhexecs;
	uint32_t *exec_line_of;		/* launch line -> paired executor line, or UINT32_MAX */
	size_t nlines;
	size_t nplanes;			/* host planes */
};

static int cmp_launch(const void *a, const void *b)
{
	const struct launch *x = a, *y = b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_hexec(const void *a, const void *b)
{
	const struct host_exec *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static void host_link_release(struct host_link *h)
{
	free(h->launches);
	free(h->hexecs);
	free(h->exec_line_of);
	memset(h, 0, sizeof(*h));
}

/*
 * The latest-starting event on executor line `line` that encloses time t (and
 * is of `module` unless NULL); returns 1 + its index, or 0.
 */
static size_t enclosing(const struct host_link *h, uint32_t line, int64_t t, const char *module)
{
	size_t lo = 0, hi = h->nhexecs, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct host_exec *x = &h->hexecs[mid];

		if (x->line < line || (x->line == line && x->start <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0;) {
		const struct host_exec *x = &h->hexecs[i];

		if (x->line != line || x->max_end < t)
			break;
		if (x->start <= t && t <= x->end && (!module || !strcmp(x->module, module)))
			return i + 1;
	}
	return 0;
}

/* Pairs each launch line with the executor line that encloses most of its launches. */
/*
 * Pairs each launch line with the executor line that encloses most of its
 * launches. Only lines that hold launches or executors take part, so the
 * vote table is (launch lines) x (executor lines), whatever the number of
 * other host lines.
 */
static int pair_lines(struct host_link *h)
{
	size_t n = h->nlines, i, j, nla = 0, nex = 0, *votes = NULL;
	uint32_t *la_of = malloc((n + 1) * sizeof(*la_of));	/* line -> launch-line index */
	uint32_t *ex = malloc((h->nhexecs + 1) * sizeof(*ex));	/* executor lines, ascending */
	uint32_t *la = malloc((h->nlaunches + 1) * sizeof(*la));	/* launch lines by index */
	int ret = XP_ERR_NOMEM;

	h->exec_line_of = malloc((n + 1) * sizeof(*h->exec_line_of));
	if (!la_of || !ex || !la || !h->exec_line_of)
		goto out;
	for (i = 0; i < n; i++) {
		la_of[i] = UINT32_MAX;
		h->exec_line_of[i] = UINT32_MAX;
	}
	for (i = 0; i < h->nhexecs; i++)	/* hexecs are sorted by line */
		if (!nex || ex[nex - 1] != h->hexecs[i].line)
			ex[nex++] = h->hexecs[i].line;
	for (i = 0; i < h->nlaunches; i++) {
		uint32_t l = h->launches[i].line;

		if (la_of[l] == UINT32_MAX) {
			la_of[l] = (uint32_t)nla;
			la[nla++] = l;
		}
	}
	if (nla && nex > SIZE_MAX / sizeof(*votes) / nla)
		goto out;
	votes = calloc(nla * nex + 1, sizeof(*votes));
	if (!votes)
		goto out;
	for (i = 0; i < h->nlaunches; i++)
		for (j = 0; j < nex; j++)
			if (enclosing(h, ex[j], h->launches[i].start, NULL))
				votes[la_of[h->launches[i].line] * nex + j]++;
	for (i = 0; i < nla; i++) {
		size_t best = 0;

		for (j = 0; j < nex; j++) {
			if (votes[i * nex + j] > best) {
				best = votes[i * nex + j];
				h->exec_line_of[la[i]] = ex[j];
			}
		}
	}
	ret = 0;
out:
	free(votes);
	free(la_of);
	free(ex);
	free(la);
	return ret;
}

static int host_link_build(struct xp_trace *t, struct host_link *h, struct xp_err *err)
{
	size_t pi, i, nl = 0, nh = 0, line_base = 0;
	int ret;

	/* Host planes are read only now, when a device plane needs them (lazy planes). */
	for (pi = 0; pi < t->nplanes; pi++) {
		if (!strncmp(t->planes[pi].name, "/host:", 6) && (ret = xp_trace_load_plane(t, pi, err)))
			return ret;
	}
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		if (strncmp(p->name, "/host:", 6))
			continue;
		h->nplanes++;
		h->nlines += p->nlines;
		for (i = 0; i < p->nevents; i++) {
			nl += xp_event_stat(p, &p->events[i], XP_K_CORRELATION_ID) != NULL;
			nh += xp_event_stat(p, &p->events[i], XP_K_MODULE_NAME) != NULL;
		}
	}
	if (!nl || !nh)
		return 0;
	h->launches = malloc(nl * sizeof(*h->launches));
	h->hexecs = malloc(nh * sizeof(*h->hexecs));
	if (!h->launches || !h->hexecs)
		return XP_ERR_NOMEM;
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		if (strncmp(p->name, "/host:", 6))
			continue;
		for (i = 0; i < p->nevents; i++) {
			const struct xp_event *e = &p->events[i];
			const struct xp_stat *s = xp_event_stat(p, e, XP_K_CORRELATION_ID);
			uint32_t line = (uint32_t)(line_base + e->line);
			size_t len;

			if (s && !xp_stat_u64(s, &h->launches[h->nlaunches].corr)) {
				h->launches[h->nlaunches].start = e->start_ps;
				h->launches[h->nlaunches].line = line;
				h->nlaunches++;
			}
			s = xp_event_stat(p, e, XP_K_MODULE_NAME);
			if (s && (h->hexecs[h->nhexecs].module = xp_stat_str(p, s, &len))) {
				h->hexecs[h->nhexecs].line = line;
				h->hexecs[h->nhexecs].start = e->start_ps;
				h->hexecs[h->nhexecs].end = e->start_ps + e->dur_ps;
				h->nhexecs++;
			}
		}
		line_base += p->nlines;
	}
	qsort(h->launches, h->nlaunches, sizeof(*h->launches), cmp_launch);
	qsort(h->hexecs, h->nhexecs, sizeof(*h->hexecs), cmp_hexec);
	for (i = 0; i < h->nhexecs; i++) {
		struct host_exec *x = &h->hexecs[i];

		x->max_end = x->end;
		if (i && x->line == x[-1].line && x[-1].max_end > x->max_end)
			x->max_end = x[-1].max_end;
	}
	return pair_lines(h);
}

/* Returns 1 + the index of the ExecuteThunks event that launched (corr, module), or 0. */
static size_t host_link_find(const struct host_link *h, uint64_t corr, const char *module)
{
	size_t lo = 0, hi = h->nlaunches;
	const struct launch *l;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->launches[mid].corr < corr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == h->nlaunches || h->launches[lo].corr != corr)
		return 0;
	l = &h->launches[lo];
	if (h->exec_line_of[l->line] == UINT32_MAX)
		return 0;
	return enclosing(h, h->exec_line_of[l->line], l->start, module);
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
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct an_exec *ne = realloc(l->execs, cap * sizeof(*ne));

		if (!ne)
			return NULL;
		l->execs = ne;
		l->cap = cap;
	}
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
	if (m->open)
		m->total += m->e - m->s;
	m->s = s;
	m->e = e;
	m->open = 1;
}

static int64_t merger_total(const struct merger *m)
{
	return m->total + (m->open ? m->e - m->s : 0);
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
	const char **names = malloc((p->nlines + 1) * sizeof(*names));
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
	struct ev_ref *all = malloc((p->nevents + 1) * sizeof(*all));
	unsigned char *hit = malloc(p->nevmetas + 1);
	size_t i, n = 0;

	if (!all || !hit) {
		free(all);
		free(hit);
		return XP_ERR_NOMEM;
	}
	for (i = 0; i <= p->nevmetas; i++)
		hit[i] = !regexec(c->o->children, p->evmetas[i].name, 0, NULL, 0);
	for (i = 0; i < p->nevents; i++) {
		const struct xp_event *e = &p->events[i];

		if (hit[e->meta] && e->dur_ps >= c->o->min_dur_ps) {
			all[n].start = e->start_ps;
			all[n].idx = (uint32_t)i;
			n++;
		}
	}
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

/* Per execution under construction: its interval merger. */
struct open_exec {
	struct merger m;
	int64_t end;
};

static int scan_plane(struct plane_ctx *c)
{
	const struct xp_plane *p = c->p;
	struct an_device *dev = &c->out->devices[c->device];
	unsigned char *use = calloc(p->nlines + 1, 1);
	struct ev_ref *evs = malloc((p->nevents + 1) * sizeof(*evs));
	int32_t *owner = malloc((p->nevents + 1) * sizeof(*owner));
	struct open_exec *open = NULL;
	int32_t *by_host = NULL;	/* host exec index -> exec index */
	size_t first = c->out->n, i, n = 0, run_exec = SIZE_MAX;
	struct merger busy = {0};
	int module_line, ret = 0;

	if (!use || !evs || !owner) {
		ret = XP_ERR_NOMEM;
		goto out;
	}
	if (device_lines(p, use, &module_line) < 0) {
		ret = XP_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < p->nevents; i++) {
		const struct xp_event *e = &p->events[i];

		owner[i] = -1;
		if (!use[e->line])
			continue;
		if (e->dur_ps < c->o->min_dur_ps) {
			dev->dropped_short++;
			continue;
		}
		evs[n].start = e->start_ps;
		evs[n].idx = (uint32_t)i;
		n++;
	}
	qsort(evs, n, sizeof(*evs), cmp_ev_ref);
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
		ret = host_link_build(c->t, c->host, c->err);
		c->host_built = 1;
		if (ret)
			goto out;
	}
	if (module_line < 0 && c->host->nhexecs) {
		by_host = malloc(c->host->nhexecs * sizeof(*by_host));
		if (!by_host) {
			ret = XP_ERR_NOMEM;
			goto out;
		}
		for (i = 0; i < c->host->nhexecs; i++)
			by_host[i] = -1;
	}
	open = calloc(n + 1, sizeof(*open));
	if (!open) {
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

		merger_add(&busy, e->start_ps, end);
		/*
		 * On stream lines only an hlo_module that names a function makes an
		 * event a function's; an XLA Modules event is an execution anyway,
		 * named by its own metadata when its hlo_module names nothing.
		 */
		mk = module_of(c, e, &module, &mlen);
		if (module_line < 0 && mk <= 0) {
			dev->unattributed_events++;
			dev->unattributed_ps += e->dur_ps;
			continue;
		}
		ret = describe(c, e, mk > 0 ? module : NULL, mlen, &probe);
		if (ret)
			goto out;
		if (module_line < 0) {
			const struct xp_stat *cs = xp_event_stat(p, e, XP_K_CORRELATION_ID);
			uint64_t corr;
			int have_corr = cs && !xp_stat_u64(cs, &corr);

			if (cs && !have_corr)
				dev->odd_stats[XP_K_CORRELATION_ID]++;
			if (by_host && have_corr)
				hk = host_link_find(c->host, corr, probe.name);
			dev->corr_events += have_corr;
			dev->linked_events += hk != 0;
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
			x->start_ps = e->start_ps;
			x->split = module_line >= 0 ? AN_SPLIT_MODULE_LINE : hk ? AN_SPLIT_HOST : AN_SPLIT_RUNS;
			xi = c->out->n - 1;
			if (hk)
				by_host[hk - 1] = (int32_t)xi;
		}
		if (!hk && module_line < 0)
			run_exec = xi;
		x = &c->out->execs[xi];
		x->events++;
		merger_add(&open[xi - first].m, e->start_ps, end);
		if (end > open[xi - first].end || x->events == 1)
			open[xi - first].end = end;
		/*
		 * Only a module-line event is excluded from its own children: it spans
		 * the execution and would count itself. A GPU execution's kernels are
		 * the work --children measures, so they stay in.
		 */
		if (module_line >= 0)
			owner[evs[i].idx] = (int32_t)(xi - first);
	}
	dev->busy_ps = merger_total(&busy);
	if (dev->corr_events && !c->host->nhexecs)
		dev->host_linkage = c->host->nplanes ? AN_LINK_NO_LAUNCHES : AN_LINK_NO_HOST_PLANE;
	for (i = first; i < c->out->n; i++) {
		struct an_exec *x = &c->out->execs[i];

		x->busy_ps = merger_total(&open[i - first].m);
		x->span_ps = open[i - first].end - x->start_ps;
	}
	if (c->o->children) {
		/* owner[] holds indexes relative to first; shift execs' view to match. */
		for (i = 0; i < p->nevents; i++)
			if (owner[i] >= 0)
				owner[i] += (int32_t)first;
		ret = add_children(c, first, owner);
	}
out:
	free(use);
	free(evs);
	free(owner);
	free(open);
	free(by_host);
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
