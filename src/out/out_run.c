/* SPDX-License-Identifier: Apache-2.0 */
#include "out_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xp_hmap.h"

#define EXACT_MAX ((int64_t)1 << 53)

static void put_int(struct out_bytes *b, int64_t v)
{
	int big = v > EXACT_MAX || v < -EXACT_MAX;

	if (big)
		out_bytes_put(b, "\"", 1);
	out_bytes_i64(b, v);
	if (big)
		out_bytes_put(b, "\"", 1);
}

static void put_key(struct out_bytes *b, const char *key, int first)
{
	if (!first)
		out_bytes_put(b, ",", 1);
	out_bytes_put(b, "\"", 1);
	out_bytes_str(b, key);
	out_bytes_put(b, "\":", 2);
}

static void put_str_or_null(struct out_bytes *b, const char *s)
{
	if (s)
		out_bytes_json_exact(b, s);
	else
		out_bytes_str(b, "null");
}

static void put_strs(struct out_bytes *b, const char *key, char *const *s, size_t n)
{
	size_t i;

	put_key(b, key, 0);
	out_bytes_put(b, "[", 1);
	for (i = 0; i < n; i++) {
		if (i)
			out_bytes_put(b, ",", 1);
		out_bytes_json_exact(b, s[i]);
	}
	out_bytes_put(b, "]", 1);
}

static void put_device(struct out_bytes *b, const struct an_device *d)
{
	size_t i;

	out_bytes_str(b, "{\"name\":");
	out_bytes_json_exact(b, d->name);
	put_key(b, "plane", 0);
	put_int(b, d->plane);
	for (i = 0; i < an_run_ndev_fields; i++) {
		const struct an_run_dev_field *f = &an_run_dev_fields[i];
		const char *p = (const char *)d + f->off;

		int64_t v = f->is_i64 ? *(const int64_t *)p : (int64_t)*(const size_t *)p;

		if (v) {	/* a count left out is 0 */
			put_key(b, f->name, 0);
			put_int(b, v);
		}
	}
	for (i = 0; i < 3; i++) {
		if (!d->odd_stats[an_run_dev_odd_key[i]])
			continue;
		put_key(b, an_run_dev_odd[i], 0);
		put_int(b, (int64_t)d->odd_stats[an_run_dev_odd_key[i]]);
	}
	if (d->module_line) {
		put_key(b, "module_line", 0);
		put_int(b, d->module_line);
	}
	if (d->host_linkage) {
		put_key(b, "host_linkage", 0);
		put_int(b, d->host_linkage);
	}
	out_bytes_put(b, "}", 1);
}

/* Functions by first appearance; fn[i] is execution i's index among them. */
static int function_index(const struct an_exec_list *l, size_t *fn, size_t **first, size_t *nfirst)
{
	struct xp_hmap m = {0};
	size_t i, n = 0;
	int ret = 0;

	*first = malloc((l->n ? l->n : 1) * sizeof(**first));
	if (!*first)
		return -1;
	for (i = 0; i < l->n && !ret; i++) {
		const struct an_exec *x = &l->execs[i];
		char *key = NULL;
		size_t idx = n;
		int found;

		/* executions come in runs of one function: most need no lookup */
		if (i && x->name == l->execs[i - 1].name && x->fingerprint == l->execs[i - 1].fingerprint &&
		    x->has_program_id == l->execs[i - 1].has_program_id &&
		    x->program_id == l->execs[i - 1].program_id) {
			fn[i] = fn[i - 1];
			continue;
		}
		if (asprintf(&key, "%s\x1f%d%s\x1f%d%" PRIu64, x->name, x->fingerprint != NULL,
			     x->fingerprint ? x->fingerprint : "", x->has_program_id, x->program_id) < 0) {
			ret = -1;
			break;
		}
		found = xp_hmap_get_or_put(&m, key, &idx);
		free(key);
		if (found < 0) {
			ret = -1;
			break;
		}
		if (!found)
			(*first)[n++] = i;
		fn[i] = idx;
	}
	xp_hmap_release(&m);
	*nfirst = n;
	return ret;
}

/* Column which's value for execution i (enum order of an_run.c's columns). */
static int64_t col_value(const struct an_exec_list *l, const size_t *fn, int which, size_t i)
{
	const struct an_exec *x = &l->execs[i];

	switch (which) {
	case 0: return (int64_t)fn[i];
	case 1: return x->device;
	case 2: return x->split;
	case 3: return x->start_ps;
	case 4: return x->busy_ps;
	case 5: return x->span_ps;
	case 6: return x->children_ps;
	case 7: return x->events;
	default: return x->has_run_id ? (int64_t)x->run_id : -1;
	}
}

/*
 * One column, as compact as SUMMARIES allows: one number when every value
 * is the same; runs ("NAME_runs": value, count, value, count...) when those
 * take under a quarter of the numbers; a time column in nanoseconds
 * ("_ns") when every value is a whole number of them, spans as their excess
 * over the busy time ("span_extra_") where none is shorter. The busy column
 * is always an array: its length is the executions' count, and a line's
 * length bounds what a reader allocates.
 */
static void put_column(struct out_bytes *b, const char *name, int time, const struct an_exec_list *l,
		       const size_t *fn, int which, int first)
{
	int extra = which == 5, same = 1, ns = time, array_only = which == 4;
	int64_t v0 = 0;
	size_t i, k, runs = 0;

	for (i = 0; i < l->n; i++)
		if (extra && col_value(l, fn, which, i) < l->execs[i].busy_ps)
			extra = 0;
	for (i = 0; i < l->n; i++) {
		int64_t v = col_value(l, fn, which, i) - (extra ? l->execs[i].busy_ps : 0);

		if (!i)
			v0 = v;
		same &= v == v0;
		ns &= v % 1000 == 0;
		runs += !i || col_value(l, fn, which, i) != col_value(l, fn, which, i - 1);
	}
	if (!first)
		out_bytes_put(b, ",", 1);
	out_bytes_put(b, "\"", 1);
	out_bytes_str(b, name);
	if (extra)
		out_bytes_str(b, "_extra");
	if (time)
		out_bytes_str(b, ns ? "_ns" : "_ps");
	if (!array_only && same && l->n) {
		out_bytes_str(b, "\":");
		put_int(b, ns ? v0 / 1000 : v0);
		return;
	}
	if (!array_only && !time && runs * 4 < l->n) {
		out_bytes_str(b, "_runs\":[");
		for (i = 0; i < l->n; i = k) {
			int64_t v = col_value(l, fn, which, i);

			for (k = i + 1; k < l->n && col_value(l, fn, which, k) == v; k++)
				;
			if (i)
				out_bytes_put(b, ",", 1);
			put_int(b, v);
			out_bytes_put(b, ",", 1);
			out_bytes_u64(b, k - i);
		}
		out_bytes_put(b, "]", 1);
		return;
	}
	out_bytes_str(b, "\":[");
	for (i = 0; i < l->n; i++) {
		int64_t v = col_value(l, fn, which, i) - (extra ? l->execs[i].busy_ps : 0);

		if (i)
			out_bytes_put(b, ",", 1);
		put_int(b, ns ? v / 1000 : v);
	}
	out_bytes_put(b, "]", 1);
}

static int put_execs(struct out_bytes *b, const struct an_exec_list *l, int children)
{
	/* starts and run ids are left out: no reader of summaries uses them (SUMMARIES) */
	static const char *const cols[] = {"function", "device", "split", NULL, "busy",
					   "span", "children", "events", NULL};
	size_t *fn = malloc((l->n ? l->n : 1) * sizeof(*fn)), *first = NULL, nfirst = 0, i;

	if (!fn || function_index(l, fn, &first, &nfirst)) {
		free(fn);
		return -1;
	}
	out_bytes_str(b, "{\"hostname\":");
	out_bytes_json_exact(b, l->hostname);
	out_bytes_str(b, ",\"devices\":[");
	for (i = 0; i < l->ndevices; i++) {
		if (i)
			out_bytes_put(b, ",", 1);
		put_device(b, &l->devices[i]);
	}
	out_bytes_str(b, "],\"functions\":[");
	for (i = 0; i < nfirst; i++) {
		const struct an_exec *x = &l->execs[first[i]];

		out_bytes_str(b, i ? ",{\"name\":" : "{\"name\":");
		out_bytes_json_exact(b, x->name);
		out_bytes_str(b, ",\"fingerprint\":");
		put_str_or_null(b, x->fingerprint);
		out_bytes_str(b, ",\"program_id\":");
		if (x->has_program_id) {
			out_bytes_put(b, "\"", 1);
			out_bytes_u64(b, x->program_id);
			out_bytes_put(b, "\"", 1);
		} else {
			out_bytes_str(b, "null");
		}
		out_bytes_put(b, "}", 1);
	}
	out_bytes_str(b, "],\"execs\":{");
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		if (!cols[i] || (i == 6 && !children))
			continue;
		put_column(b, cols[i], i >= 3 && i <= 6, l, fn, (int)i, i == 0);
	}
	out_bytes_str(b, "}}");
	free(fn);
	free(first);
	return 0;
}

int out_run_line(const struct an_run *r, struct out_bytes *b)
{
	size_t i;
	int first;

	out_bytes_str(b, AN_RUN_MAGIC);
	out_bytes_i64(b, AN_RUN_SCHEMA);
	put_key(b, "tool", 0);
	out_bytes_json_exact(b, r->tool ? r->tool : "");
	out_bytes_str(b, ",\"input\":{\"path\":");
	out_bytes_json_exact(b, r->path);
	put_key(b, "size", 0);
	put_int(b, (int64_t)r->size);
	put_key(b, "crc32", 0);
	put_int(b, r->crc32);
	put_strs(b, "hostnames", r->hostnames, r->nhostnames);
	put_strs(b, "planes", r->planes, r->nplanes);
	put_key(b, "empty_planes", 0);
	out_bytes_put(b, "[", 1);
	for (i = 0, first = 1; i < r->nplanes; i++) {
		if (!r->plane_empty || !r->plane_empty[i])
			continue;
		if (!first)
			out_bytes_put(b, ",", 1);
		first = 0;
		out_bytes_u64(b, i);
	}
	out_bytes_put(b, "]}", 2);
	put_strs(b, "tags", r->tags, r->ntags);
	if (r->hist.present) {
		out_bytes_str(b, ",\"history\":{\"commit\":");
		out_bytes_json_exact(b, r->hist.commit ? r->hist.commit : "");
		out_bytes_str(b, r->hist.dirty ? ",\"dirty\":true" : ",\"dirty\":false");
		put_key(b, "run", 0);
		put_int(b, (int64_t)r->hist.run);
		put_key(b, "time", 0);
		put_int(b, r->hist.time);
		put_key(b, "host", 0);
		out_bytes_json_exact(b, r->hist.host ? r->hist.host : "");
		out_bytes_put(b, "}", 1);
	}
	out_bytes_str(b, ",\"options\":{\"device\":");
	put_str_or_null(b, r->device);
	out_bytes_str(b, ",\"children\":");
	put_str_or_null(b, r->children);
	put_key(b, "min_duration_ps", 0);
	put_int(b, r->min_dur_ps);
	out_bytes_put(b, "}", 1);
	put_strs(b, "warnings", r->warnings, r->nwarnings);
	out_bytes_str(b, ",\"exec\":");
	if (put_execs(b, &r->execs, r->children != NULL))
		return -1;
	out_bytes_str(b, "}\n");
	return b->failed ? -1 : 0;
}
