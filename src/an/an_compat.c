/* SPDX-License-Identifier: Apache-2.0 */
#include "an_compat.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "xp_hmap.h"

static int icontains(const char *hay, const char *needle)
{
	size_t n = strlen(hay), m = strlen(needle), i, j;

	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m; j++)
			if (tolower((unsigned char)hay[i + j]) != tolower((unsigned char)needle[j]))
				break;
		if (j == m)
			return 1;
	}
	return 0;
}

/*
 * A stat as the original printed it: a zero or empty value read as None, a
 * double printed as Python's float repr.
 */
static void py_repr(const struct xp_plane *p, const struct xp_stat *s, char *buf, size_t n)
{
	size_t len = 0;
	const char *str;

	if (!s)
		goto none;
	switch (s->type) {
	case XP_STAT_DOUBLE:
		if (s->v.d == 0)
			goto none;
		xp_stat_format(p, s, buf, n);
		if (!strpbrk(buf, ".eEni"))
			strncat(buf, ".0", n - strlen(buf) - 1);
		return;
	case XP_STAT_UINT64:
	case XP_STAT_REF:
		if (s->v.u == 0)
			goto none;
		break;
	case XP_STAT_INT64:
		if (s->v.i == 0)
			goto none;
		break;
	case XP_STAT_STR:
	case XP_STAT_BYTES:
		str = xp_stat_str(p, s, &len);
		if (!str || !len)
			goto none;
		break;
	default:
		goto none;
	}
	xp_stat_format(p, s, buf, n);
	return;
none:
	snprintf(buf, n, "None");
}

struct kept {
	int64_t start, end;
	size_t order;
	char *key;
};

static int cmp_kept(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static char *make_key(const struct xp_plane *p, const struct xp_event *e)
{
	const struct xp_stat *prog = xp_event_stat(p, e, XP_K_PROGRAM_ID);
	const struct xp_stat *mod = xp_event_stat(p, e, XP_K_HLO_MODULE);
	const char *name = xp_event_name(p, e);
	char pid[64], sid[64], num[64];
	size_t len = strlen(name);
	char *key = NULL;

	/* A string-valued hlo_module is used as is, however long; numbers go through py_repr. */
	if (mod && (mod->type == XP_STAT_STR || mod->type == XP_STAT_BYTES || mod->type == XP_STAT_REF) &&
	    (name = xp_stat_str(p, mod, &len)) && len) {
		/* name and len set */
	} else if (mod) {
		py_repr(p, mod, num, sizeof(num));
		name = num;
		len = strlen(num);
	}
	py_repr(p, prog ? prog : xp_event_stat(p, e, XP_K_RUN_ID), pid, sizeof(pid));
	py_repr(p, xp_event_stat(p, e, XP_K_SCOPE_RANGE_ID), sid, sizeof(sid));
	if (asprintf(&key, "%.*s(%s-%s)", (int)len, name, pid, sid) < 0)
		return NULL;
	return key;
}

/* Union of the events after k that lie inside it, whose keys differ and match re. */
static int64_t children_time(const struct kept *ev, size_t n, size_t k, const regex_t *re)
{
	int64_t total = 0, cs = 0, ce = 0;
	size_t lo = 0, hi = n, i;
	int open = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ev[mid].start < ev[k].start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < n && ev[i].start <= ev[k].end; i++) {
		if (!strcmp(ev[i].key, ev[k].key) || ev[i].end > ev[k].end ||
		    regexec(re, ev[i].key, 0, NULL, 0))
			continue;
		if (open && ev[i].start <= ce) {
			if (ev[i].end > ce)
				ce = ev[i].end;
			continue;
		}
		if (open)
			total += ce - cs;
		cs = ev[i].start;
		ce = ev[i].end;
		open = 1;
	}
	return total + (open ? ce - cs : 0);
}

/* "no plane name contains 'gpu'", with the device planes there are and the --device to try. */
static int no_plane(const struct xp_trace *t, const char *device, struct xp_err *err)
{
	char list[256] = "";
	const char *kind = NULL;
	size_t i, len = 0, shown = 0, ndev = 0;

	for (i = 0; i < t->nplanes; i++) {
		const char *name = t->planes[i].name;

		if (!an_is_device_plane(name))
			continue;
		if (!kind)
			kind = icontains(name, "tpu") ? "tpu" : icontains(name, "gpu") ? "gpu" : name;
		if (shown < 2 && len < sizeof(list)) {
			int w = snprintf(list + len, sizeof(list) - len, "%s%s", shown ? ", " : "", name);

			len += w > 0 ? (size_t)w : 0;
			shown++;
		}
		ndev++;
	}
	if (!kind)
		return xp_err_set(err, XP_ERR_USAGE, "no plane name contains '%s', and the file has no device plane",
				  device);
	return xp_err_set(err, XP_ERR_USAGE, "no plane name contains '%s' (device planes here: %s%s): try --device %s",
			  device, list, ndev > shown ? ", ..." : "", kind);
}

int an_compat_add(const struct xp_trace *t, const struct an_compat_opts *o, struct an_at_result *r,
		  size_t input, struct an_compat_file *info, struct xp_err *err)
{
	const struct xp_plane *p = NULL;
	struct kept *ev = NULL;
	struct xp_hmap keys = {0};
	int64_t *val = NULL;
	char **names = NULL;
	size_t i, n = 0, nkeys = 0;
	int ret = 0;

	memset(info, 0, sizeof(*info));
	for (i = 0; i < t->nplanes && !p; i++)
		if (icontains(t->planes[i].name, o->device))
			p = &t->planes[i];
	if (!p)
		return no_plane(t, o->device, err);
	info->plane = p->name;
	ev = xp_calloc_big(p->nevents + 1, sizeof(*ev));
	val = xp_calloc_big(p->nevents + 1, sizeof(*val));
	names = xp_calloc_big(p->nevents + 1, sizeof(*names));
	if (!ev || !val || !names)
		goto nomem;
	/* Lines in file order, events in order: p->events is laid out so. */
	for (i = 0; i < p->nevents; i++) {
		const struct xp_event *e = &p->events[i];

		if (n == AN_COMPAT_MAX_EVENTS) {
			info->truncated = 1;
			break;
		}
		if (e->dur_ps < AN_COMPAT_MIN_DUR_PS) {
			info->dropped_short++;
			continue;
		}
		ev[n].start = e->start_ps;
		ev[n].end = e->start_ps + e->dur_ps;
		ev[n].order = n;
		ev[n].key = make_key(p, e);
		if (!ev[n].key)
			goto nomem;
		n++;
	}
	info->kept = n;
	qsort(ev, n, sizeof(*ev), cmp_kept);
	for (i = 0; i < n; i++) {
		size_t slot = nkeys;
		int found;

		if (strncmp(ev[i].key, "jit_", 4))
			continue;
		found = xp_hmap_get_or_put(&keys, ev[i].key, &slot);
		if (found < 0)
			goto nomem;
		if (!found)
			names[nkeys++] = ev[i].key;
		/* A later event with the same key replaces the earlier one. */
		val[slot] = o->children ? children_time(ev, n, i, o->children) : ev[i].end - ev[i].start;
	}
	info->keys = nkeys;
	for (i = 0; i < nkeys; i++) {
		int nomem = 0;
		char *id = an_at_match_id(o->id_re, names[i], &nomem);

		if (nomem)
			goto nomem;
		if (!id)
			continue;
		ret = an_at_add_sample(r, id, input, (double)val[i]);
		free(id);
		if (ret)
			goto nomem;
	}
	goto out;
nomem:
	ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
out:
	for (i = 0; i < n; i++)
		free(ev[i].key);
	free(ev);
	free(val);
	free(names);
	xp_hmap_release(&keys);
	return ret;
}
