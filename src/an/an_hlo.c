/* SPDX-License-Identifier: Apache-2.0 */
/* The HLO modules of a trace's metadata plane, decoded on demand, and ops looked up in them. */
#include "an_hlo.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xp_arena.h"
#include "xp_sort.h"

int an_hlo_split_name(const char *s, size_t *base_len, uint64_t *pid)
{
	size_t n = strlen(s), i;
	char *end;
	unsigned long long v;

	*base_len = n;
	if (n < 3 || s[n - 1] != ')')
		return 0;
	for (i = n - 2; i > 0 && isdigit((unsigned char)s[i]); i--)
		;
	if (s[i] != '(' || i == n - 2 || i == 0)
		return 0;
	errno = 0;
	v = strtoull(s + i + 1, &end, 10);
	if (errno || end != s + n - 1)
		return 0;	/* past 2^64-1: no program id */
	*base_len = i;
	*pid = v;
	return 1;
}

static int is_metadata_plane(const char *name)
{
	return !strcmp(name, "/host:metadata");
}

static int add_entry(struct an_hlo_set *s, const struct xp_plane *p, const struct xp_evmeta *m)
{
	const struct xp_stat *hlo = NULL;
	uint64_t pid = 0;
	int has_pid = 0;
	size_t k, base;
	struct an_hlo_entry *e;

	for (k = 0; k < m->nstats; k++) {
		const struct xp_stat *st = &p->stats[m->stats_first + k];
		const char *name = xp_stat_name(p, st);

		if (!name)
			continue;
		if (!strcmp(name, "Hlo Proto") && (st->type == XP_STAT_BYTES || st->type == XP_STAT_STR))
			hlo = st;
		else if (!strcmp(name, "program_id") && !xp_stat_u64(st, &pid) && pid)
			has_pid = 1;
	}
	if (!hlo || !m->name)
		return 0;
	if (xp_grow(&s->e, &s->cap, s->n, sizeof(*s->e), 16))
		return -1;
	e = &s->e[s->n];
	memset(e, 0, sizeof(*e));
	if (an_hlo_split_name(m->name, &base, &e->program_id))
		e->has_program_id = 1;
	else if (has_pid) {
		e->program_id = pid;
		e->has_program_id = 1;
	}
	e->name = strdup(m->name);
	e->base = strndup(m->name, base);
	if (!e->name || !e->base) {
		free(e->name);
		free(e->base);
		return -1;
	}
	e->bytes = (const uint8_t *)hlo->v.s.p;
	e->len = hlo->v.s.len;
	s->n++;
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct an_hlo_entry *x = a, *y = b;
	int c;

	if ((c = strcmp(x->base, y->base)) || (c = xp_cmp_i64(x->has_program_id, y->has_program_id)) ||
	    (c = xp_cmp_u64(x->program_id, y->program_id)))
		return c;
	return strcmp(x->name, y->name);
}

int an_hlo_find(struct an_hlo_set *s, struct xp_trace *t, struct xp_err *err)
{
	size_t i, j;
	int ret;

	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p;

		if (!is_metadata_plane(t->planes[i].name))
			continue;
		if ((ret = xp_trace_load_plane(t, i, err)))
			return ret;
		p = &t->planes[i];
		for (j = 0; j < p->nevmetas; j++)
			if (add_entry(s, p, &p->evmetas[j]))
				return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	if (s->n)	/* qsort(NULL, 0) is undefined */
		qsort(s->e, s->n, sizeof(*s->e), entry_cmp);
	return 0;
}

/* An entry's base against the len bytes at name: as strcmp would order them. */
static int cmp_base(const char *base, const char *name, size_t len)
{
	int c = strncmp(base, name, len);

	return c ? c : base[len] != '\0';
}

struct an_hlo_entry *an_hlo_lookup(struct an_hlo_set *s, const char *module, uint64_t program_id, int has_program_id)
{
	size_t base, lo = 0, hi = s->n, i, named = 0;
	uint64_t pid;
	struct an_hlo_entry *only = NULL;

	if (!module)
		return NULL;
	if (an_hlo_split_name(module, &base, &pid) && !has_program_id) {
		program_id = pid;
		has_program_id = 1;
	}
	while (lo < hi) {	/* the first entry of that name: the set is sorted by name (an_hlo_find) */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_base(s->e[mid].base, module, base) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < s->n && !cmp_base(s->e[i].base, module, base); i++) {
		struct an_hlo_entry *e = &s->e[i];

		if (has_program_id && e->has_program_id) {
			if (e->program_id == program_id)
				return e;
			continue;
		}
		only = e;
		named++;
	}
	return named == 1 ? only : NULL;
}

const struct xp_hlo_module *an_hlo_module(struct an_hlo_set *s, struct an_hlo_entry *e, int *nomem)
{
	struct xp_err err = {0};
	int ret;

	if (e->tried)
		return e->mod;
	if ((ret = xp_hlo_decode(e->bytes, e->len, &e->mod, &err))) {
		if (ret == XP_ERR_NOMEM) {
			*nomem = 1;
			return NULL;
		}
		e->tried = 1;
		s->failed++;
		if (!(e->error = strdup(err.msg)))
			*nomem = 1;
		return NULL;
	}
	e->tried = 1;
	e->decoded = 1;
	if (!e->entry_name && !(e->entry_name = strdup(e->mod->entry_name))) {
		*nomem = 1;
		return NULL;
	}
	e->comps = e->mod->ncomps;
	e->instrs = e->mod->ninstrs;
	e->fusions = e->mod->nfusions;
	return e->mod;
}

void an_hlo_forget(struct an_hlo_entry *e)
{
	xp_hlo_free(e->mod);
	e->mod = NULL;
	e->tried = 0;
}

const struct xp_hlo_instr *an_hlo_op(const struct xp_hlo_module *m, const char *op)
{
	const char *last = op, *c;

	if (!m || !op)
		return NULL;
	for (c = op; (c = strstr(c, "::")); c += 2)
		last = c + 2;
	return xp_hlo_instr_named(m, last);
}

int an_hlo_mark_op(struct an_hlo_set *s, const char *module, uint64_t program_id, int has_program_id,
		   const char *op)
{
	struct an_hlo_entry *e = an_hlo_lookup(s, module, program_id, has_program_id);
	const struct xp_hlo_module *m;
	int nomem = 0;

	if (!e)
		return 0;
	e->ops++;
	m = an_hlo_module(s, e, &nomem);
	if (nomem)
		return -1;
	if (m && !an_hlo_op(m, op))
		e->ops_unmatched++;
	return 0;
}

void an_hlo_set_release(struct an_hlo_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->e[i].name);
		free(s->e[i].base);
		free(s->e[i].error);
		free(s->e[i].entry_name);
		xp_hlo_free(s->e[i].mod);
	}
	free(s->e);
	memset(s, 0, sizeof(*s));
}
