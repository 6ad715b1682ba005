/* SPDX-License-Identifier: Apache-2.0 */
/* Runs of several hosts: which inputs are one run (an_group.h). */
#include "an_group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xp_hmap.h"

/* Per directory: its inputs, and how many are named after the host their trace names. */
struct dir_count {
	const char *dir;
	size_t inputs, named;
	size_t run;		/* its run once numbered, when it is one */
	int one_run;
};

static int one_run(struct dir_count *d, enum an_run_by by, struct xp_notes *notes)
{
	if (by == AN_RUN_BY_FILE || d->inputs < 2)
		return 0;
	if (by == AN_RUN_BY_DIR)
		return 1;
	if (d->named == d->inputs)
		return 1;	/* a session: a file per host, named after it */
	if (!d->named)
		return 0;	/* rounds */
	if (notes && xp_notes_add(notes, "'%s': %zu of %zu profiles named after their hosts, the others not: each "
				  "profile taken as a run; --run-by dir takes the directory as one run", d->dir,
				  d->named, d->inputs) < 0)
		return -1;
	return 0;
}

/* Whether path's file name, without .xplane.pb[.gz], is host (XProf's <host>.xplane.pb). */
static int named_after(const char *path, const char *host)
{
	const char *base = strrchr(path, '/');
	size_t n = strlen(host);

	base = base ? base + 1 : path;
	return n && !strncmp(base, host, n) && (!strcmp(base + n, ".xplane.pb") || !strcmp(base + n, ".xplane.pb.gz"));
}

/*
 * Runs of a session directory with fewer hosts than the largest: a host
 * missing (a failed process, a file not copied). Each is named (three at
 * most, then a count); its sample is over the hosts it has.
 */
static int short_runs(const struct dir_count *d, size_t nd, size_t max_hosts, struct xp_notes *notes)
{
	size_t i, n = 0;

	if (!notes || max_hosts < 2)
		return 0;
	for (i = 0; i < nd; i++) {
		size_t hosts = d[i].one_run ? d[i].inputs : 1;

		if (hosts >= max_hosts || (!d[i].one_run && d[i].inputs > 1))
			continue;	/* a directory of separate runs is no session */
		if (++n <= 3 && xp_notes_add(notes, "'%s': a run of %zu host%s where the largest has %zu: its sample is over "
					     "the hosts it has", d[i].dir, hosts, hosts == 1 ? "" : "s", max_hosts) < 0)
			return XP_ERR_NOMEM;
	}
	if (n > 3 && xp_notes_add(notes, "%zu more runs with fewer hosts than the largest run", n - 3) < 0)
		return XP_ERR_NOMEM;
	return 0;
}

int an_group_runs(const struct an_group_in *in, size_t n, enum an_run_by by, struct an_groups *g,
		  struct xp_notes *notes)
{
	struct xp_hmap dirs = {0};
	struct dir_count *d = calloc(n + 1, sizeof(*d));
	size_t *ix = calloc(n + 1, sizeof(*ix)), i, nd = 0;
	int ret = XP_ERR_NOMEM, r;

	memset(g, 0, sizeof(*g));
	if (!d || !ix || !(g->run = calloc(n + 1, sizeof(*g->run))))
		goto out;
	for (i = 0; i < n; i++) {
		size_t at = nd;

		if (!in[i].dir)
			continue;
		if ((r = xp_hmap_get_or_put(&dirs, in[i].dir, &at)) < 0)
			goto out;
		if (!r)
			d[nd++].dir = in[i].dir;
		ix[i] = at;
		d[at].inputs++;
		d[at].named += in[i].hostname && in[i].path && named_after(in[i].path, in[i].hostname);
	}
	for (i = 0; i < nd; i++)
		if ((d[i].one_run = one_run(&d[i], by, notes)) < 0)
			goto out;
	g->max_hosts = n ? 1 : 0;
	for (i = 0; i < n; i++) {
		struct dir_count *c = in[i].dir ? &d[ix[i]] : NULL;

		if (!c || !c->one_run) {
			g->run[i] = g->nruns++;
			continue;
		}
		if (c->inputs > g->max_hosts)
			g->max_hosts = c->inputs;
		if (!c->run)
			c->run = ++g->nruns;	/* numbered from 1 here: 0 is unset */
		g->run[i] = c->run - 1;
	}
	ret = short_runs(d, nd, g->max_hosts, notes);
out:
	xp_hmap_release(&dirs);
	free(ix);
	free(d);
	if (ret)
		an_groups_release(g);
	return ret;
}

void an_groups_release(struct an_groups *g)
{
	free(g->run);
	memset(g, 0, sizeof(*g));
}

int an_same_host(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The const char * at offset off of element i. */
static const char **field(void *base, size_t i, size_t size, size_t off)
{
	return (const char **)((char *)base + i * size + off);
}

size_t an_name_by_host(void *base, size_t n, const struct an_host_fields *f, struct xp_arena *a)
{
	size_t i, j, hosts = 0;

	for (i = 0; i < n; i++) {
		const char *h = *field(base, i, f->size, f->host);

		for (j = 0; j < i && !an_same_host(*field(base, j, f->size, f->host), h); j++)
			;
		hosts += j == i;
	}
	for (i = 0; hosts > 1 && i < n; i++) {
		const char *h = *field(base, i, f->size, f->host), *p = *field(base, i, f->size, f->plane);
		char *label;

		if (!h)
			continue;
		if (asprintf(&label, "%s:%s", h, p) < 0)
			return 0;
		*field(base, i, f->size, f->name) = xp_arena_strndup(a, label, strlen(label));
		free(label);
		if (!*field(base, i, f->size, f->name))
			return 0;
	}
	return hosts;
}
