/* SPDX-License-Identifier: Apache-2.0 */
#include "an_autotune.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xp_arena.h"

void an_at_init(struct an_at_result *r, const struct an_at_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->opts = *o;
}

char *an_at_match_id(const regex_t *re, const char *name, int *nomem)
{
	regmatch_t m[2];
	char *id;

	if (regexec(re, name, 2, m, 0) || m[1].rm_so < 0)
		return NULL;
	id = strndup(name + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
	if (!id)
		*nomem = 1;
	return id;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* "007" and "7" are one candidate, as int() made them in the Python original. */
static const char *canonical_id(const char *id)
{
	while (all_digits(id) && id[0] == '0' && id[1])
		id++;
	return id;
}

/* Adds prog to c's programs if it is not there yet (kept in order: unknown, then ascending). */
static int add_prog(struct an_at_cand *c, const struct an_at_prog *p)
{
	struct an_at_prog *np;
	size_t i;

	for (i = 0; i < c->nprogs; i++) {
		if (c->progs[i].known == p->known && (!p->known || c->progs[i].id == p->id))
			return 0;
		if (c->progs[i].known > p->known || (p->known && c->progs[i].id > p->id))
			break;
	}
	np = realloc(c->progs, (c->nprogs + 1) * sizeof(*np));
	if (!np)
		return XP_ERR_NOMEM;
	c->progs = np;
	memmove(&np[i + 1], &np[i], (c->nprogs - i) * sizeof(*np));
	np[i] = *p;
	c->nprogs++;
	return 0;
}

int an_at_add_sample_prog(struct an_at_result *r, const char *raw, const struct an_at_prog *prog,
			  size_t input, double ps)
{
	const char *id = canonical_id(raw);
	size_t idx = r->ncands;
	struct an_at_cand *c;
	char *key = NULL;
	int found;

	/* split: a row per (id, program); one result never mixes these keys with bare ids */
	if (prog && r->opts.programs == AN_AT_SPLIT_PROGRAMS) {
		if (prog->known ? asprintf(&key, "%s\x1f%" PRIu64, id, prog->id) < 0
				: asprintf(&key, "%s\x1f-", id) < 0)
			return XP_ERR_NOMEM;
	}
	found = xp_hmap_get_or_put(&r->by_id_, key ? key : id, &idx);
	free(key);
	if (found < 0)
		return XP_ERR_NOMEM;
	if (!found) {
		if (xp_grow(&r->cands, &r->cap, r->ncands, sizeof(*r->cands), 16))
			return XP_ERR_NOMEM;
		c = &r->cands[r->ncands++];
		memset(c, 0, sizeof(*c));
		c->last_input_ = SIZE_MAX;
		c->id = strdup(id);
		if (!c->id)
			return XP_ERR_NOMEM;
	}
	c = &r->cands[idx];
	if (prog) {
		r->programs = 1;
		if (add_prog(c, prog))
			return XP_ERR_NOMEM;
	}
	if (c->last_input_ != input) {
		c->inputs++;
		c->last_input_ = input;
	}
	if (xp_grow(&c->samples_, &c->cap_, c->nsamples_, sizeof(*c->samples_), 8) ||
	    xp_grow(&c->run_, &c->run_cap_, c->nsamples_, sizeof(*c->run_), 8))
		return XP_ERR_NOMEM;
	c->run_[c->nsamples_] = input;
	c->samples_[c->nsamples_++] = ps;
	return 0;
}

void an_at_group(struct an_at_result *r, const size_t *run, size_t n, size_t nruns)
{
	size_t i, j;

	/* an input past the n grouped is a run of its own, after the others */
	for (i = 0; i < r->ncands; i++)
		for (j = 0; j < r->cands[i].nsamples_; j++) {
			size_t in = r->cands[i].run_[j];

			r->cands[i].run_[j] = in < n ? run[in] : nruns + (in - n);
		}
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* The runs that hold a candidate: the distinct runs of all samples. 0 or -1 when out of memory. */
static int count_runs(const struct an_at_result *r, size_t *runs)
{
	size_t i, n = 0, k;
	size_t *all;

	for (i = 0; i < r->ncands; i++)
		n += r->cands[i].nsamples_;
	if (!(all = malloc((n + 1) * sizeof(*all))))
		return -1;
	for (i = n = 0; i < r->ncands; i++) {
		if (r->cands[i].nsamples_)
			memcpy(all + n, r->cands[i].run_, r->cands[i].nsamples_ * sizeof(*all));
		n += r->cands[i].nsamples_;
	}
	if (n > 1)
		qsort(all, n, sizeof(*all), cmp_size);
	for (i = k = 0; i < n; i++)
		k += !i || all[i] != all[i - 1];
	free(all);
	*runs = k;
	return 0;
}

int an_at_add_sample(struct an_at_result *r, const char *raw, size_t input, double ps)
{
	return an_at_add_sample_prog(r, raw, NULL, input, ps);
}

int an_at_add(struct an_at_result *r, const struct an_exec_list *l, struct xp_err *err)
{
	size_t input = r->inputs++, i, chosen = SIZE_MAX, got = 0;
	int nomem = 0, ret = 0;
	char *id;

	for (i = 0; i < l->ndevices; i++)
		r->dropped_short += l->devices[i].dropped_short;
	for (i = 0; i < l->n && chosen == SIZE_MAX; i++) {
		id = an_at_match_id(r->opts.id_re, l->execs[i].name, &nomem);
		if (id)
			chosen = l->execs[i].device;	/* planes are scanned in file order */
		free(id);
	}
	for (i = 0; i < l->n && !nomem && !ret; i++) {
		const struct an_exec *x = &l->execs[i];

		if (!r->opts.all_devices && x->device != chosen)
			continue;
		struct an_at_prog prog = {x->has_program_id, x->program_id};

		id = an_at_match_id(r->opts.id_re, x->name, &nomem);
		if (!id)
			continue;
		ret = an_at_add_sample_prog(r, id, &prog, input, (double)an_exec_time(x, r->opts.time));
		free(id);
		got++;
	}
	if (nomem || ret)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (!got)
		r->inputs_without++;
	return 0;
}

static int cmp_cand_id(const void *a, const void *b)
{
	const struct an_at_cand *x = a, *y = b;
	int dx = all_digits(x->id), dy = all_digits(y->id);

	const struct an_at_prog *px = x->nprogs ? &x->progs[0] : NULL, *py = y->nprogs ? &y->progs[0] : NULL;
	int c;

	if (dx && dy) {
		size_t lx = strlen(x->id), ly = strlen(y->id);

		if (lx != ly)
			return lx < ly ? -1 : 1;
	} else if (dx != dy) {
		return dx ? -1 : 1;
	}
	c = strcmp(x->id, y->id);
	if (c || !px || !py)
		return c;
	/* one id's rows (split by program): unknown program first, then ascending */
	if (px->known != py->known)
		return px->known ? 1 : -1;
	return px->id < py->id ? -1 : px->id > py->id;
}

int an_at_finish(struct an_at_result *r, struct xp_err *err)
{
	size_t i, j, k, fastest = 0;

	if (count_runs(r, &r->runs))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	r->samples_are_runs = r->opts.run_means && r->runs > 1;
	for (i = 0; r->samples_are_runs && i < r->ncands; i++)
		if (an_run_means(r->cands[i].samples_, NULL, r->cands[i].run_, r->cands[i].nsamples_,
				 &r->cands[i].nsamples_))
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (r->ncands > 1)	/* qsort(NULL, 0) is undefined */
		qsort(r->cands, r->ncands, sizeof(*r->cands), cmp_cand_id);
	for (i = 0; i < r->ncands; i = j) {
		for (j = i + 1; j < r->ncands && !strcmp(r->cands[j].id, r->cands[i].id); j++)
			;
		for (k = i; k < j; k++)
			r->cands[k].id_rows = j - i;
	}
	for (i = 0; i < r->ncands; i++) {
		an_summarize(r->cands[i].samples_, r->cands[i].nsamples_,
			     r->samples_are_runs && r->opts.trim_runs_auto &&
			     r->cands[i].nsamples_ < AN_AT_TRIM_RUNS_MIN ? 0 : r->opts.trim, &r->cands[i].s);
		if (r->cands[i].s.mean < r->cands[fastest].s.mean)
			fastest = i;
	}
	for (i = 0; i < r->ncands; i++) {
		struct an_at_cand *c = &r->cands[i];

		c->rank = 1;
		for (j = 0; j < r->ncands; j++)
			if (r->cands[j].s.mean < c->s.mean || (r->cands[j].s.mean == c->s.mean && j < i))
				c->rank++;
		if (i == fastest) {
			c->p_vs_fastest = 1;
			c->log10_p_vs_fastest = 0;
			c->tied = 1;
		} else if (c->s.n_used < 2 || r->cands[fastest].s.n_used < 2) {
			c->p_vs_fastest = -1;
			c->log10_p_vs_fastest = 0;
			c->tied = -1;	/* too few samples for a test */
		} else {
			struct an_welch w;

			an_welch(&c->s, &r->cands[fastest].s, &w);
			c->p_vs_fastest = w.p;
			c->log10_p_vs_fastest = w.log10_p;
			c->tied = w.p >= r->opts.alpha;
		}
	}
	return 0;
}

void an_at_release(struct an_at_result *r)
{
	size_t i;

	for (i = 0; i < r->ncands; i++) {
		free(r->cands[i].id);
		free(r->cands[i].progs);
		free(r->cands[i].samples_);
		free(r->cands[i].run_);
	}
	free(r->cands);
	xp_hmap_release(&r->by_id_);
	memset(r, 0, sizeof(*r));
}

const double *an_at_samples(const struct an_at_cand *c, size_t *n)
{
	*n = c->nsamples_;
	return c->samples_;
}

const char *an_at_nowinner_name(enum an_at_nowinner why)
{
	switch (why) {
	case AN_AT_WINNER:
		return NULL;
	case AN_AT_NO_CANDIDATE:
		return "no candidate";
	case AN_AT_TIED:
		return "tied";
	case AN_AT_UNTESTED:
		return "untested";
	case AN_AT_PROGRAMS:
		return "several programs";
	}
	return NULL;
}

const struct an_at_cand *an_at_winner(const struct an_at_result *r, enum an_at_nowinner *why,
				      const struct an_at_cand **rival)
{
	const struct an_at_cand *best = NULL;
	size_t i;

	*rival = NULL;
	for (i = 0; i < r->ncands; i++)
		if (r->cands[i].rank == 1)
			best = &r->cands[i];
	/* the fastest is tied with itself (tied 1): only the others can be tied or untested */
	*why = !best ? AN_AT_NO_CANDIDATE : best->id_rows > 1 ? AN_AT_PROGRAMS : AN_AT_WINNER;
	for (i = 0; best && !*why && i < r->ncands; i++) {
		const struct an_at_cand *c = &r->cands[i];

		if (c == best || c->tied == 0)
			continue;
		*rival = c;
		*why = c->tied > 0 ? AN_AT_TIED : AN_AT_UNTESTED;
	}
	return *why ? NULL : best;
}
