/* SPDX-License-Identifier: Apache-2.0 */
/* The summary line format, write side: a run as one JSON line that an_summary_parse reads back. */
#include "out_summary.h"

#include <inttypes.h>
#include <math.h>
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

/* An unsigned integer: beyond 2^53 as a string of digits. */
static void put_u128(struct out_bytes *b, unsigned __int128 v)
{
	uint64_t w[3] = {(uint64_t)v, (uint64_t)(v >> 64), 0};
	char buf[64];

	if (v <= (unsigned __int128)EXACT_MAX) {
		out_bytes_u64(b, (uint64_t)v);
		return;
	}
	an_u192_format(w, buf, sizeof(buf));
	out_bytes_put(b, "\"", 1);
	out_bytes_str(b, buf);
	out_bytes_put(b, "\"", 1);
}

/* A double that reads back as the same double; never inf or nan, which JSON cannot carry (the analyses give none). */
static void put_double(struct out_bytes *b, double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), isfinite(v) ? "%.17g" : "null", v);
	out_bytes_str(b, buf);
}

static void put_key(struct out_bytes *b, const char *key, int first)
{
	if (!first)
		out_bytes_put(b, ",", 1);
	out_bytes_put(b, "\"", 1);
	out_bytes_str(b, key);
	out_bytes_put(b, "\":", 2);
}

/* ,"key":v: a field after the first. */
static void put_int_field(struct out_bytes *b, const char *key, int64_t v)
{
	put_key(b, key, 0);
	put_int(b, v);
}

/* The counts of table (n, size_t fields of base), each after a comma. */
static void put_counts(struct out_bytes *b, const struct an_summary_count *table, size_t n, const void *base)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const size_t *v = (const size_t *)((const char *)base + table[i].off);

		put_int_field(b, table[i].name, (int64_t)*v);
	}
}

static void put_str_or_null(struct out_bytes *b, const char *s)
{
	if (s)
		out_bytes_json_exact(b, s);
	else
		out_bytes_str(b, "null");
}

/* ,"key":"s", or null. */
static void put_str_field(struct out_bytes *b, const char *key, const char *s)
{
	put_key(b, key, 0);
	put_str_or_null(b, s);
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
	put_int_field(b, "plane", d->plane);
	for (i = 0; i < an_summary_ndev_fields; i++) {
		const struct an_summary_dev_field *f = &an_summary_dev_fields[i];
		const char *p = (const char *)d + f->off;

		int64_t v = f->is_i64 ? *(const int64_t *)p : (int64_t)*(const size_t *)p;

		if (v)	/* a count left out is 0 */
			put_int_field(b, f->name, v);
	}
	for (i = 0; i < 3; i++) {
		size_t v = d->odd_stats[an_summary_dev_odd_key[i]];

		if (v)
			put_int_field(b, an_summary_dev_odd[i], (int64_t)v);
	}
	if (d->module_line)
		put_int_field(b, "module_line", d->module_line);
	if (d->host_linkage)
		put_int_field(b, "host_linkage", d->host_linkage);
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
	if (l->sparsecore_planes)	/* left out (an_exec_list) */
		put_int_field(b, "sparsecore_planes", (int64_t)l->sparsecore_planes);
	if (l->scope_edges_repeated)
		put_int_field(b, "scope_edges_repeated", (int64_t)l->scope_edges_repeated);
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

/* A function's program id as digits, or null. */
static void put_program(struct out_bytes *b, int has, uint64_t pid)
{
	put_key(b, "program_id", 0);
	if (!has) {
		out_bytes_str(b, "null");
		return;
	}
	out_bytes_put(b, "\"", 1);
	out_bytes_u64(b, pid);
	out_bytes_put(b, "\"", 1);
}

static void put_launch(struct out_bytes *b, const struct an_launch *l)
{
	int k;

	put_key(b, "launch", 0);
	for (k = 0; k < 6; k++) {
		out_bytes_put(b, k ? "," : "[", 1);
		put_u128(b, k < 3 ? l->grid[k] : l->block[k - 3]);
	}
	for (k = 0; k < AN_CFG_NFIELDS; k++) {
		out_bytes_put(b, ",", 1);
		if (l->has[k])
			put_u128(b, l->field[k]);
		else
			out_bytes_str(b, "null");
	}
	out_bytes_put(b, ",", 1);
	if (l->has_occ)
		put_double(b, l->occ_pct);
	else
		out_bytes_str(b, "null");
	out_bytes_put(b, "]", 1);
}

/* A kernel row: its key, then its instances sorted (the first, then differences) or its sketch. */
static int put_kern_row(struct out_bytes *b, struct an_kern_row *row)
{
	struct an_kern_digest d;
	char s2[64];
	size_t i;

	if (an_kern_row_digest(row, &d))
		return -1;
	out_bytes_str(b, "{\"name\":");
	out_bytes_json_exact(b, row->name);
	put_int_field(b, "config", row->cfg_state);
	if (row->cfg_state == AN_CFG_OK)
		put_launch(b, &row->cfg);
	put_str_field(b, "function", row->function);
	put_program(b, row->has_program_id, row->program_id);
	put_str_field(b, "op", row->op);
	if (d.samples) {
		put_key(b, "samples", 0);
		for (i = 0; i < d.n; i++) {
			out_bytes_put(b, i ? "," : "[", 1);
			put_int(b, i ? d.samples[i] - d.samples[i - 1] : d.samples[0]);
		}
		out_bytes_str(b, d.n ? "]}" : "[]}");
		return 0;
	}
	put_int_field(b, "n", (int64_t)d.m.n);
	out_bytes_str(b, ",\"sum\":\"");
	{
		uint64_t w[3] = {(uint64_t)d.m.s1, (uint64_t)(d.m.s1 >> 64), 0};

		an_u192_format(w, s2, sizeof(s2));
		out_bytes_str(b, s2);
	}
	out_bytes_str(b, "\",\"sum_sq\":\"");
	an_u192_format(d.m.s2, s2, sizeof(s2));
	out_bytes_str(b, s2);
	out_bytes_put(b, "\"", 1);
	put_int_field(b, "min", d.m.min);
	put_int_field(b, "max", d.m.max);
	put_int_field(b, "zeros", (int64_t)d.s.zeros);
	put_key(b, "index", 0);
	for (i = 0; i < d.s.n; i++) {
		out_bytes_put(b, i ? "," : "[", 1);
		put_int(b, i ? d.s.idx[i] - d.s.idx[i - 1] : d.s.idx[0]);
	}
	out_bytes_str(b, d.s.n ? "]" : "[]");
	put_key(b, "count", 0);
	for (i = 0; i < d.s.n; i++) {
		out_bytes_put(b, i ? "," : "[", 1);
		put_int(b, (int64_t)d.s.cnt[i]);
	}
	out_bytes_str(b, d.s.n ? "]}" : "[]}");
	an_kern_digest_release(&d);
	return 0;
}

static int put_kern_plane(struct out_bytes *b, struct an_run_kern_plane *p)
{
	struct an_kern_result *r = &p->r;
	size_t i;
	int first = 1;

	out_bytes_str(b, "{\"plane\":");
	out_bytes_json_exact(b, p->plane);
	put_str_field(b, "device", p->device);
	if (!p->device) {
		out_bytes_put(b, "}", 1);
		return 0;
	}
	put_counts(b, an_summary_kern_counts, 3, r);
	put_int_field(b, "busy_ps", r->kernel_busy_ps);
	put_str_field(b, "bad_config_example", r->bad_config_example);
	if (r->partial_config) {	/* left out when none: older readers know the line without it */
		put_int_field(b, "partial_config", (int64_t)r->partial_config);
		put_str_field(b, "partial_config_example", r->partial_config_example);
	}
	out_bytes_str(b, ",\"copies\":{");
	for (i = 1; i < AN_KIND_COUNT; i++) {
		const struct an_copy *c = &r->copies[i];

		if (!c->count)
			continue;
		put_key(b, an_kind_name((enum an_kind)i), first);
		first = 0;
		out_bytes_put(b, "[", 1);
		put_int(b, (int64_t)c->count);
		out_bytes_put(b, ",", 1);
		put_u128(b, c->total_ps);
		out_bytes_put(b, ",", 1);
		put_u128(b, c->bytes);
		out_bytes_str(b, c->bytes_saturated ? ",1," : ",0,");
		put_int(b, (int64_t)c->no_bytes);
		out_bytes_put(b, ",", 1);
		put_u128(b, c->bytes_ps);
		out_bytes_put(b, "]", 1);
	}
	out_bytes_str(b, "},\"rows\":[");
	for (i = 0; i < r->nrows; i++) {
		if (i)
			out_bytes_put(b, ",", 1);
		if (put_kern_row(b, &r->rows[i]))
			return -1;
	}
	out_bytes_str(b, "]}");
	return 0;
}

static void put_sum(struct out_bytes *b, const char *key, const struct an_sum *s)
{
	put_key(b, key, 0);
	out_bytes_put(b, "[", 1);
	put_u128(b, s->v);
	out_bytes_put(b, ",", 1);
	put_int(b, (int64_t)s->n);
	out_bytes_str(b, s->overflow ? ",1]" : ",0]");
}

static void put_ops_plane(struct out_bytes *b, const struct an_run_ops_plane *p)
{
	const struct an_ops_result *r = &p->r;
	const struct an_ops_device *d = &r->devices[0];
	size_t i;

	out_bytes_str(b, "{\"plane\":");
	out_bytes_json_exact(b, p->plane);
	out_bytes_str(b, ",\"device\":{\"name\":");
	out_bytes_json_exact(b, d->name);
	put_str_field(b, "chip", d->chip);
	put_int_field(b, "peak_source", d->peak_src);
	put_key(b, "peak_flops", 0);
	put_double(b, d->peak_flops);
	put_key(b, "peak_bw", 0);
	put_double(b, d->peak_bw);
	put_counts(b, an_summary_ops_counts, 5, d);
	for (i = 0; i < 3; i++) {
		size_t v = *(const size_t *)((const char *)d + an_summary_ops_counts_opt[i].off);

		if (v)
			put_int_field(b, an_summary_ops_counts_opt[i].name, (int64_t)v);
	}
	out_bytes_str(b, "},\"rows\":[");
	for (i = 0; i < r->nrows; i++) {
		const struct an_op_row *row = &r->rows[i];

		out_bytes_str(b, i ? ",{\"line\":" : "{\"line\":");
		put_int(b, row->line);
		put_key(b, "name", 0);
		out_bytes_json_exact(b, row->name);
		put_str_field(b, "hlo", row->hlo);
		put_str_field(b, "category", row->category);
		put_str_field(b, "module", row->module);
		put_program(b, row->has_program_id, row->program_id);
		put_int_field(b, "occurrences", row->occurrences > (uint64_t)AN_SUMMARY_MAX_COUNT ? AN_SUMMARY_MAX_COUNT
					      : (int64_t)row->occurrences);
		if (row->line == AN_OP_GPU) {	/* its calls (an_op_row), and kernels without a scope id */
			put_int_field(b, "calls", (int64_t)row->calls);
			if (row->kernels_unscoped)
				put_int_field(b, "unscoped", (int64_t)row->kernels_unscoped);
			if (row->calls_host)	/* counted from the host (an_hostcall.h) */
				put_int_field(b, "calls_host", 1);
			if (row->cost)	/* how its flops and bytes were looked up in the HLO (an_op_cost) */
				put_int_field(b, "cost", (int64_t)row->cost);
			if (row->cost_why)
				put_str_field(b, "cost_why", row->cost_why);
		}
		put_int_field(b, "total_ps", row->total_ps);
		put_int_field(b, "self_ps", row->self_ps);
		put_sum(b, "flops", &row->flops);
		put_sum(b, "model_flops", &row->model_flops);
		put_sum(b, "bytes", &row->bytes);
		out_bytes_put(b, "}", 1);
	}
	out_bytes_str(b, "]}");
}

static int put_kernels(struct out_bytes *b, struct an_run_kernels *k)
{
	size_t i;

	out_bytes_str(b, ",\"kernels\":{\"planes\":[");
	for (i = 0; i < k->nplanes; i++) {
		if (i)
			out_bytes_put(b, ",", 1);
		if (put_kern_plane(b, &k->planes[i]))
			return -1;
	}
	out_bytes_put(b, "]", 1);
	put_strs(b, "warnings", k->warnings, k->nwarnings);
	out_bytes_put(b, "}", 1);
	return 0;
}

static void put_ops(struct out_bytes *b, const struct an_run_ops *o)
{
	size_t i;

	out_bytes_str(b, ",\"ops\":{\"planes\":[");
	for (i = 0; i < o->nplanes; i++) {
		if (i)
			out_bytes_put(b, ",", 1);
		put_ops_plane(b, &o->planes[i]);
	}
	out_bytes_put(b, "]", 1);
	put_strs(b, "warnings", o->warnings, o->nwarnings);
	out_bytes_put(b, "}", 1);
}

int out_summary_line(const struct an_run *r, struct out_bytes *b)
{
	size_t i;
	int first;

	out_bytes_str(b, AN_SUMMARY_MAGIC);
	out_bytes_i64(b, AN_SUMMARY_SCHEMA);
	put_key(b, "tool", 0);
	out_bytes_json_exact(b, r->tool ? r->tool : "");
	out_bytes_str(b, ",\"input\":{\"path\":");
	out_bytes_json_exact(b, r->path);
	put_int_field(b, "size", (int64_t)r->size);
	put_int_field(b, "crc32", r->crc32);
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
	out_bytes_put(b, "]", 1);
	/* of those, the planes that hold aggregated events only: written when there are any */
	for (i = 0, first = 1; i < r->nplanes; i++) {
		if (!r->plane_empty || r->plane_empty[i] != 2)
			continue;
		if (first) {
			put_key(b, "aggregated_only_planes", 0);
			out_bytes_put(b, "[", 1);
		} else {
			out_bytes_put(b, ",", 1);
		}
		first = 0;
		out_bytes_u64(b, i);
	}
	if (!first)
		out_bytes_put(b, "]", 1);
	out_bytes_put(b, "}", 1);
	put_strs(b, "tags", r->tags, r->ntags);
	if (r->hist.present) {
		out_bytes_str(b, ",\"history\":{\"commit\":");
		out_bytes_json_exact(b, r->hist.commit ? r->hist.commit : "");
		out_bytes_str(b, r->hist.dirty ? ",\"dirty\":true" : ",\"dirty\":false");
		put_int_field(b, "run", (int64_t)r->hist.run);
		put_int_field(b, "time", r->hist.time);
		put_key(b, "host", 0);
		out_bytes_json_exact(b, r->hist.host ? r->hist.host : "");
		out_bytes_put(b, "}", 1);
	}
	out_bytes_str(b, ",\"options\":{\"device\":");
	put_str_or_null(b, r->device);
	out_bytes_str(b, ",\"children\":");
	put_str_or_null(b, r->children);
	put_int_field(b, "min_duration_ps", r->min_dur_ps);
	out_bytes_put(b, "}", 1);
	put_strs(b, "warnings", r->warnings, r->nwarnings);
	out_bytes_str(b, ",\"exec\":");
	if (put_execs(b, &r->execs, r->children != NULL))
		return -1;
	/* a row's samples are sorted as they are written: the run is otherwise left as it was */
	if (r->kernels && put_kernels(b, (struct an_run_kernels *)r->kernels))
		return -1;
	if (r->ops)
		put_ops(b, r->ops);
	out_bytes_str(b, "}\n");
	return b->failed ? -1 : 0;
}

/*
 * A JSON string holds no unescaped quote, so the first "run": in a line
 * is its history's, as out_summary_line wrote it.
 */
int out_summary_set_run(const char *lines, size_t len, uint64_t run, struct out_bytes *out)
{
	static const char key[] = "\"run\":0,";
	const char *p = lines, *end = p + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *k;
		size_t n = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);

		k = memmem(p, n, key, sizeof(key) - 1);
		if (!k)
			return -1;
		out_bytes_put(out, p, (size_t)(k - p));
		out_bytes_str(out, "\"run\":");
		out_bytes_u64(out, run);
		out_bytes_put(out, ",", 1);
		k += sizeof(key) - 1;
		out_bytes_put(out, k, (size_t)(p + n - k));
		p += n;
	}
	return out->failed ? -1 : 0;
}
