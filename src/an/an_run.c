/* SPDX-License-Identifier: Apache-2.0 */
/* The run model: a run's kernels and ops from a trace, pooled as an input; copies and release. */
#include "an_run.h"

#include <stdlib.h>
#include <string.h>

#include "an_functions.h"

static void free_strs(char **s, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

/* ---- from a trace, into an analysis ------------------------------------------- */

int an_run_kernels_of(struct an_run_kernels **out, struct xp_trace *t, const char *device, struct xp_err *err)
{
	struct an_run_kernels *k = calloc(1, sizeof(*k));
	const char *host = t->nhostnames ? t->hostnames[0] : "";
	size_t i;
	int ret = 0;

	*out = k;
	if (!k || !(k->planes = calloc(t->nplanes + 1, sizeof(*k->planes))))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (i = 0; i < t->nplanes && !ret; i++) {
		struct an_run_kern_plane *p = &k->planes[k->nplanes];

		if (!an_exec_wants_plane(t->planes[i].name, (void *)device))
			continue;
		an_kern_init(&p->r, &(struct an_kern_opts){.by = AN_KERN_BY_ALL});
		k->nplanes++;
		if ((ret = an_kern_add_plane(&p->r, t, i, err)))
			break;
		if (!(p->plane = strdup(t->planes[i].name)) ||
		    (p->r.devices && !(p->device = an_device_key(host, t->planes[i].name))))
			ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		else if (!p->r.devices && !p->r.device_planes_no_streams) {	/* no events: nothing to keep */
			free(p->plane);
			an_kern_release(&p->r);
			k->nplanes--;
		}
	}
	return ret;
}

int an_run_ops_of(struct an_run_ops **out, struct xp_trace *t, const char *device, struct xp_err *err)
{
	struct an_run_ops *o = calloc(1, sizeof(*o));
	struct an_ops_opts oo = {.device = device};
	const char *host = t->nhostnames ? t->hostnames[0] : "";
	size_t i, k;
	int ret = 0;

	*out = o;
	if (!o || !(o->planes = calloc(t->nplanes + 1, sizeof(*o->planes))))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (i = 0; i < t->nplanes && !ret; i++) {
		struct an_run_ops_plane *p;
		char *key;

		if (!an_ops_wants_plane(&oo, t->planes[i].name))
			continue;
		/* planes of one name share their device, its peaks and its rows: as an_ops_add pools them */
		if (!(key = an_device_key(host, t->planes[i].name)))
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		for (k = 0; k < o->nplanes && strcmp(o->planes[k].r.devices[0].name, key); k++)
			;
		free(key);
		p = &o->planes[k];
		if (k == o->nplanes)
			an_ops_init(&p->r, &oo);
		if ((ret = an_ops_add_plane(&p->r, t, i, err)))
			break;
		if (k == o->nplanes && p->r.ndevices) {
			o->nplanes++;
			if (!(p->plane = strdup(t->planes[i].name)))
				ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		} else if (k == o->nplanes) {
			an_ops_release(&p->r);	/* no events */
		}
	}
	/* GPU rows costed from the HLO as an_ops_add does (each device's rows apart: the same per row) */
	if (!ret && o->nplanes) {
		struct an_ops_result **rs = malloc(o->nplanes * sizeof(*rs));

		if (!rs)
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		for (i = 0; i < o->nplanes; i++)
			rs[i] = &o->planes[i].r;
		ret = an_ops_join_many(rs, o->nplanes, t, err);
		free(rs);
	}
	return ret;
}

int an_run_kernels_pool(struct an_run_kernels *k, struct an_kern_result *r, struct xp_err *err)
{
	size_t i;
	int ret;

	r->inputs++;
	for (i = 0; i < k->nplanes; i++)
		if (an_exec_wants_plane(k->planes[i].plane, (void *)r->opts.device) &&
		    (ret = an_kern_merge(r, &k->planes[i].r, err)))
			return ret;
	return 0;
}

int an_run_ops_pool(const struct an_run_ops *o, struct an_ops_result *r, struct xp_err *err)
{
	size_t i;
	int ret;

	r->inputs++;
	r->summaries++;
	for (i = 0; i < o->nplanes; i++)
		if (an_ops_wants_plane(&r->opts, o->planes[i].plane) && (ret = an_ops_merge(r, &o->planes[i].r, err)))
			return ret;
	return 0;
}

void an_run_kernels_select(struct an_run_kernels *k, const char *pattern)
{
	size_t i, n = 0;

	for (i = 0; i < k->nplanes; i++) {
		if (an_exec_wants_plane(k->planes[i].plane, (void *)pattern)) {
			k->planes[n++] = k->planes[i];
			continue;
		}
		free(k->planes[i].plane);
		free(k->planes[i].device);
		an_kern_release(&k->planes[i].r);
	}
	k->nplanes = n;
}

void an_run_ops_select(struct an_run_ops *o, const char *pattern)
{
	struct an_ops_opts oo = {.device = pattern};
	size_t i, n = 0;

	for (i = 0; i < o->nplanes; i++) {
		if (an_ops_wants_plane(&oo, o->planes[i].plane)) {
			o->planes[n++] = o->planes[i];
			continue;
		}
		free(o->planes[i].plane);
		an_ops_release(&o->planes[i].r);
	}
	o->nplanes = n;
}

void an_run_kernels_free(struct an_run_kernels *k)
{
	size_t i;

	if (!k)
		return;
	free_strs(k->warnings, k->nwarnings);
	for (i = 0; i < k->nplanes; i++) {
		free(k->planes[i].plane);
		free(k->planes[i].device);
		an_kern_release(&k->planes[i].r);
	}
	free(k->planes);
	free(k);
}

void an_run_ops_free(struct an_run_ops *o)
{
	size_t i;

	if (!o)
		return;
	free_strs(o->warnings, o->nwarnings);
	for (i = 0; i < o->nplanes; i++) {
		free(o->planes[i].plane);
		an_ops_release(&o->planes[i].r);
	}
	free(o->planes);
	free(o);
}

void an_run_release(struct an_run *r)
{
	if (!r)
		return;
	free(r->path);
	free(r->tool);
	free_strs(r->hostnames, r->nhostnames);
	free_strs(r->planes, r->nplanes);
	free(r->plane_empty);
	free_strs(r->tags, r->ntags);
	free_strs(r->warnings, r->nwarnings);
	free(r->hist.commit);
	free(r->hist.host);
	free(r->device);
	free(r->children);
	free(r->src_file);
	an_exec_list_release(&r->execs);
	an_run_kernels_free(r->kernels);
	an_run_ops_free(r->ops);
	memset(r, 0, sizeof(*r));
}

int an_exec_list_copy(struct an_exec_list *dst, const struct an_exec_list *src)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	xp_arena_init(&dst->arena);
	dst->devices = calloc(src->ndevices + 1, sizeof(*dst->devices));
	dst->execs = calloc(src->n ? src->n : 1, sizeof(*dst->execs));
	dst->hostname = xp_arena_strndup(&dst->arena, src->hostname, strlen(src->hostname));
	if (!dst->devices || !dst->execs || !dst->hostname)
		goto nomem;
	dst->cap = src->n ? src->n : 1;
	for (i = 0; i < src->ndevices; i++) {
		dst->devices[i] = src->devices[i];
		dst->devices[i].name = xp_arena_strndup(&dst->arena, src->devices[i].name,
							strlen(src->devices[i].name));
		if (!dst->devices[i].name)
			goto nomem;
	}
	dst->ndevices = src->ndevices;
	for (i = 0; i < src->n; i++) {
		struct an_exec *x = &dst->execs[i];

		*x = src->execs[i];
		/* executions of one function share its strings: copy each once */
		if (i && src->execs[i - 1].name == src->execs[i].name) {
			x->name = dst->execs[i - 1].name;
		} else if (!(x->name = xp_arena_strndup(&dst->arena, x->name, strlen(x->name)))) {
			goto nomem;
		}
		if (i && src->execs[i - 1].fingerprint == src->execs[i].fingerprint)
			x->fingerprint = dst->execs[i - 1].fingerprint;
		else if (x->fingerprint &&
			 !(x->fingerprint = xp_arena_strndup(&dst->arena, x->fingerprint, strlen(x->fingerprint))))
			goto nomem;
	}
	dst->n = src->n;
	return 0;
nomem:
	an_exec_list_release(dst);
	return XP_ERR_NOMEM;
}

int an_run_select_devices(struct an_exec_list *l, const char *pattern)
{
	uint32_t *map = calloc(l->ndevices + 1, sizeof(*map));
	size_t i, nd = 0, n = 0;

	if (!map)
		return XP_ERR_NOMEM;
	for (i = 0; i < l->ndevices; i++) {
		if (!an_device_matches(l->devices[i].name, pattern)) {
			map[i] = UINT32_MAX;
			continue;
		}
		map[i] = (uint32_t)nd;
		l->devices[nd++] = l->devices[i];
	}
	for (i = 0; i < l->n; i++) {
		if (map[l->execs[i].device] == UINT32_MAX)
			continue;
		l->execs[n] = l->execs[i];
		l->execs[n++].device = map[l->execs[i].device];
	}
	l->ndevices = nd;
	l->n = n;
	free(map);
	return 0;
}
