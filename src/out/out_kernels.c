/* SPDX-License-Identifier: Apache-2.0 */
#include "out_kernels.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out_json.h"

#define PLURAL(n) ((n) == 1 ? "" : "s")

static const char *by_name(enum an_kern_by b)
{
	return b == AN_KERN_BY_CONFIG ? "config" : b == AN_KERN_BY_FUNCTION ? "function" : "name";
}

/* Rows shown: all, or those of the first top rows (functions with --by function). */
static size_t rows_shown(const struct an_kern_result *r, const struct out_kern_opts *o)
{
	size_t i, n = 0;

	if (!o->top)
		return r->nrows;
	if (r->opts.by != AN_KERN_BY_FUNCTION)
		return o->top < r->nrows ? o->top : r->nrows;
	for (i = 0; i < r->nfns && i < o->top; i++) {
		const struct an_kern_fn *fn = &r->fns[i];
		size_t k;

		for (k = fn->first_op; k < fn->first_op + fn->nops; k++)
			n += r->ops[k].nrows;
	}
	return n;
}

static double gbps(const struct an_copy *c)
{
	/* bytes / (ps * 1e-12) / 1e9 */
	return c->bytes_time > 0 ? (double)c->bytes / c->bytes_time * 1000.0 : NAN;
}

static const char *cfg_state_name(enum an_cfg_state s)
{
	return s == AN_CFG_OK ? "ok" : s == AN_CFG_BAD ? "unparsable" : "none";
}

static void add_dim3(cJSON *o, const char *name, const uint64_t v[3])
{
	cJSON *a = cJSON_AddArrayToObject(o, name);
	int k;

	for (k = 0; a && k < 3; k++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[k]));
}

static cJSON *row_json(const struct an_kern_result *r, const struct an_kern_row *row)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "name", row->name);
	cJSON_AddBoolToObject(o, "tensor_core", row->tensor_core);
	if (r->opts.by == AN_KERN_BY_CONFIG) {
		cJSON_AddStringToObject(o, "config_state", cfg_state_name(row->cfg_state));
		if (row->cfg_state == AN_CFG_OK) {
			cJSON *l = cJSON_AddObjectToObject(o, "launch");
			int f;

			cJSON_AddStringToObject(o, "config", row->config);
			if (l) {
				add_dim3(l, "grid", row->cfg.grid);
				add_dim3(l, "block", row->cfg.block);
				for (f = 0; f < AN_CFG_NFIELDS; f++)
					if (row->cfg.has[f])
						out_json_add_u64(l, an_cfg_field_name((enum an_cfg_field)f),
								 row->cfg.field[f]);
				if (row->cfg.has_occ)
					cJSON_AddNumberToObject(l, "occ_pct", row->cfg.occ_pct);
			}
		} else {
			cJSON_AddNullToObject(o, "config");
			cJSON_AddNullToObject(o, "launch");
		}
	}
	cJSON_AddNumberToObject(o, "instances", (double)row->instances);
	if (row->approximate)	/* median, p90 and p99 from a summary's sketch (within AN_SKETCH_ALPHA) */
		cJSON_AddStringToObject(o, "quantiles", "approximate");
	out_json_add_ns(o, "total_ns", row->total);
	cJSON_AddNumberToObject(o, "mean_ns", row->mean / 1000.0);
	cJSON_AddNumberToObject(o, "median_ns", row->median / 1000.0);
	out_json_add_ns(o, "min_ns", (double)row->min);
	out_json_add_ns(o, "max_ns", (double)row->max);
	cJSON_AddNumberToObject(o, "std_ns", row->std / 1000.0);
	out_json_add_ns(o, "p90_ns", (double)row->p90);
	out_json_add_ns(o, "p99_ns", (double)row->p99);
	cJSON_AddNumberToObject(o, "share", row->share);
	return o;
}

static void add_kernels(cJSON *doc, const struct an_kern_result *r, size_t shown)
{
	cJSON *rows = cJSON_AddArrayToObject(doc, "kernels");
	size_t i;

	for (i = 0; rows && i < shown; i++)
		cJSON_AddItemToArray(rows, row_json(r, &r->rows[i]));
}

static void add_functions(cJSON *doc, const struct an_kern_result *r, size_t nfns)
{
	cJSON *fa = cJSON_AddArrayToObject(doc, "functions"), *fo, *oo;
	size_t i, k, j;

	for (i = 0; i < nfns && (fo = out_json_push_object(fa)); i++) {
		const struct an_kern_fn *fn = &r->fns[i];
		cJSON *oa;

		out_json_add_str_or_null(fo, "name", fn->name);
		out_json_add_id(fo, "program_id", fn->has_program_id, fn->program_id);
		cJSON_AddNumberToObject(fo, "instances", (double)fn->instances);
		out_json_add_ns(fo, "total_ns", fn->total);
		cJSON_AddNumberToObject(fo, "share", fn->share);
		oa = cJSON_AddArrayToObject(fo, "ops");
		for (k = fn->first_op; k < fn->first_op + fn->nops && (oo = out_json_push_object(oa)); k++) {
			const struct an_kern_op *op = &r->ops[k];
			cJSON *ka;

			out_json_add_str_or_null(oo, "name", op->name);
			cJSON_AddNumberToObject(oo, "instances", (double)op->instances);
			out_json_add_ns(oo, "total_ns", op->total);
			cJSON_AddNumberToObject(oo, "share", op->share);
			ka = cJSON_AddArrayToObject(oo, "kernels");
			for (j = op->first_row; ka && j < op->first_row + op->nrows; j++)
				cJSON_AddItemToArray(ka, row_json(r, &r->rows[j]));
		}
	}
}

static void add_copies(cJSON *doc, const struct an_kern_result *r)
{
	cJSON *a = cJSON_AddArrayToObject(doc, "memcpy");
	int k;

	for (k = 0; a && k < AN_KIND_COUNT; k++) {
		const struct an_copy *c = &r->copies[k];
		cJSON *o;
		double g;

		if (k == AN_KIND_KERNEL || !c->count || !(o = out_json_push_object(a)))
			continue;
		cJSON_AddStringToObject(o, "kind", an_kind_name((enum an_kind)k));
		cJSON_AddNumberToObject(o, "count", (double)c->count);
		out_json_add_ns(o, "total_ns", c->total);
		cJSON_AddNumberToObject(o, "mean_ns", c->total / (double)c->count / 1000.0);
		out_json_add_u64(o, "bytes", c->bytes);
		cJSON_AddBoolToObject(o, "bytes_saturated", c->bytes_saturated);
		cJSON_AddNumberToObject(o, "without_bytes", (double)c->no_bytes);
		g = gbps(c);
		if (isfinite(g))
			cJSON_AddNumberToObject(o, "gb_per_s", g);
		else
			cJSON_AddNullToObject(o, "gb_per_s");
	}
}

/* An instance's start in the file's clock, ns with its ps: start_ns + start_sub_ps / 1000 exactly. */
static void fmt_clock(char *buf, size_t n, const struct an_kern_inst *x)
{
	/* floor division made start_sub_ps 0..999: below 0 the digits are those of the negated sum */
	if (x->start_ns < 0 && x->start_sub_ps)
		snprintf(buf, n, "-%" PRIu64 ".%03" PRId64, (uint64_t)(-(x->start_ns + 1)), 1000 - x->start_sub_ps);
	else if (x->start_ns < 0)
		snprintf(buf, n, "-%" PRIu64 ".000", (uint64_t)0 - (uint64_t)x->start_ns);
	else
		snprintf(buf, n, "%" PRId64 ".%03" PRId64, x->start_ns, x->start_sub_ps);
}

/* The slowest instances: where and when each ran (times in ns, start also in the file's clock). */
static void add_slowest(cJSON *doc, const struct an_kern_result *r)
{
	cJSON *a = cJSON_AddArrayToObject(doc, "slowest"), *o;
	size_t i;

	for (i = 0; a && i < r->nslowest && (o = out_json_push_object(a)); i++) {
		const struct an_kern_inst *x = &r->slowest[i];
		char abs[48];

		out_json_add_ns(o, "duration_ns", (double)x->dur_ps);
		out_json_add_ns(o, "offset_ns", (double)x->offset_ps);
		/* the file's clock as a string: ns since its epoch do not fit a double exactly */
		fmt_clock(abs, sizeof(abs), x);
		cJSON_AddStringToObject(o, "start_ns", abs);
		cJSON_AddStringToObject(o, "kernel", x->name);
		cJSON_AddStringToObject(o, "input", x->input);
		cJSON_AddStringToObject(o, "device", x->device);
		cJSON_AddStringToObject(o, "stream", x->stream);
		out_json_add_id(o, "correlation_id", x->has_correlation, x->correlation);
		out_json_add_str_or_null(o, "function", x->function);
		out_json_add_id(o, "program_id", x->function && x->has_program_id, x->program_id);
	}
}

static int print_json(FILE *f, const struct an_kern_result *r, const struct out_kern_opts *o,
		      const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("kernels");
	size_t shown = rows_shown(r, o);
	size_t nfns = o->top && o->top < r->nfns ? o->top : r->nfns;

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "by", by_name(r->opts.by));
	cJSON_AddNumberToObject(doc, "inputs", (double)r->inputs);
	cJSON_AddNumberToObject(doc, "devices", (double)r->devices);
	cJSON_AddNumberToObject(doc, "stream_lines", (double)r->stream_lines);
	cJSON_AddNumberToObject(doc, "kernel_instances", (double)r->kernel_events);
	out_json_add_ns(doc, "kernel_total_ns", r->kernel_ps);
	out_json_add_ns(doc, "kernel_busy_ns", (double)r->kernel_busy_ps);
	out_json_add_ns(doc, "tensor_core_ns", r->tensor_core_ps);
	cJSON_AddNumberToObject(doc, "rows", (double)r->nrows);
	cJSON_AddNumberToObject(doc, "rows_omitted", (double)(r->nrows - shown));
	cJSON_AddNumberToObject(doc, "copy_events", (double)r->copy_events);
	cJSON_AddNumberToObject(doc, "stray_end_events", (double)r->stray_events);
	cJSON_AddNumberToObject(doc, "zero_duration_kernels", (double)r->zero_events);
	cJSON_AddNumberToObject(doc, "kernel_details_missing", (double)r->no_config);
	cJSON_AddNumberToObject(doc, "kernel_details_unparsable", (double)r->bad_config);
	cJSON_AddNumberToObject(doc, "kernel_details_implausible", (double)r->implausible_config);
	cJSON_AddNumberToObject(doc, "kernel_details_partial", (double)r->partial_config);
	if (r->opts.by == AN_KERN_BY_FUNCTION) {
		cJSON_AddNumberToObject(doc, "functions_count", (double)r->nfns);
		add_functions(doc, r, nfns);
	} else {
		add_kernels(doc, r, shown);
	}
	add_copies(doc, r);
	if (r->opts.slowest)
		add_slowest(doc, r);
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

static void fmt_program(char *buf, size_t n, int has, uint64_t v)
{
	if (has)
		snprintf(buf, n, "%" PRIu64, v);
	else
		snprintf(buf, n, "%s", "");
}

/*
 * A copy kind's seven cells, for programs (machine: nanoseconds, bytes
 * exactly, no rate empty) or people (times in the units of tot and mean,
 * "+" after saturated bytes, no rate "-").
 */
static void copy_cells(struct out_table *t, int machine, enum an_kind k, const struct an_copy *c,
		       const struct out_tcol *tot, const struct out_tcol *mean)
{
	double g = gbps(c);

	out_table_add(t, "%s", an_kind_name(k));
	out_table_add(t, "%zu", c->count);
	out_table_add_time_cell(t, machine, tot, c->total, 1);
	out_table_add_time_cell(t, machine, mean, c->total / (double)c->count, 1);
	out_table_add(t, "%" PRIu64 "%s", c->bytes, !machine && c->bytes_saturated ? "+" : "");
	out_table_add(t, "%zu", c->no_bytes);
	if (isfinite(g))
		out_table_add(t, "%.3f", g);
	else
		out_table_add(t, "%s", machine ? "" : "-");
}

static int print_machine(FILE *f, enum out_mode mode, const struct an_kern_result *r,
			 const struct out_kern_opts *o)
{
	static const char *const hk[] = {"function", "program_id", "op", "kernel", "config", "instances",
					 "total_ns", "mean_ns", "median_ns", "min_ns", "max_ns", "std_ns",
					 "p90_ns", "p99_ns", "share"};
	static const char *const hc[] = {"kind", "count", "total_ns", "mean_ns", "bytes", "without_bytes",
					 "gb_per_s"};
	const char *h[15];
	struct out_table t;
	size_t i, nh = 0, shown = rows_shown(r, o);
	int by_fn = r->opts.by == AN_KERN_BY_FUNCTION, by_cfg = r->opts.by == AN_KERN_BY_CONFIG, ret;

	if (o->copies) {
		out_table_init(&t, 7, hc, NULL);
		for (i = 0; i < AN_KIND_COUNT; i++)
			if (i != AN_KIND_KERNEL && r->copies[i].count)
				copy_cells(&t, 1, (enum an_kind)i, &r->copies[i], NULL, NULL);
		goto print;
	}
	for (i = 0; i < sizeof(hk) / sizeof(hk[0]); i++) {
		if ((i < 3 && !by_fn) || (i == 4 && !by_cfg))
			continue;
		h[nh++] = hk[i];
	}
	out_table_init(&t, nh, h, NULL);
	for (i = 0; i < shown; i++) {
		const struct an_kern_row *row = &r->rows[i];
		char prog[24];

		if (by_fn) {
			fmt_program(prog, sizeof(prog), row->has_program_id, row->program_id);
			out_table_add(&t, "%s", row->function ? row->function : "");
			out_table_add(&t, "%s", row->function ? prog : "");
			out_table_add(&t, "%s", row->op ? row->op : "");
		}
		out_table_add(&t, "%s", row->name);
		if (by_cfg)
			out_table_add(&t, "%s", row->cfg_state == AN_CFG_BAD ? "?" : row->config);
		out_table_add(&t, "%zu", row->instances);
		out_table_add(&t, "%.3f", row->total / 1000.0);
		out_table_add(&t, "%.3f", row->mean / 1000.0);
		out_table_add(&t, "%.3f", row->median / 1000.0);
		out_table_add(&t, "%.3f", (double)row->min / 1000.0);
		out_table_add(&t, "%.3f", (double)row->max / 1000.0);
		out_table_add(&t, "%.3f", row->std / 1000.0);
		out_table_add(&t, "%.3f", (double)row->p90 / 1000.0);
		out_table_add(&t, "%.3f", (double)row->p99 / 1000.0);
		out_table_add(&t, "%.6f", row->share);
	}
print:
	ret = out_table_print(&t, f, mode, NULL);
	out_table_release(&t);
	return ret;
}

/* The copies table for people. */
static int print_copies(FILE *f, const struct an_kern_result *r, const struct out_style *st)
{
	static const unsigned char right[] = {0, 1, 1, 1, 1, 1, 1};
	const char *h[7];
	char th[2][32];
	struct out_tcol col[2];
	struct out_table t;
	size_t i;
	int ret;

	out_tcol_init(&col[0], st->unit);
	out_tcol_init(&col[1], st->unit);
	for (i = 0; i < AN_KIND_COUNT; i++) {
		if (i == AN_KIND_KERNEL || !r->copies[i].count)
			continue;
		out_tcol_add(&col[0], r->copies[i].total);
		out_tcol_add(&col[1], r->copies[i].total / (double)r->copies[i].count);
	}
	out_tcols_share(col, 2);
	out_tcol_header(&col[0], th[0], sizeof(th[0]), "TOTAL");
	out_tcol_header(&col[1], th[1], sizeof(th[1]), "MEAN");
	h[0] = "COPY KIND";
	h[1] = "COUNT";
	h[2] = th[0];
	h[3] = th[1];
	h[4] = "BYTES";
	h[5] = "NO BYTES";
	h[6] = "GB/S";
	out_table_init(&t, 7, h, right);
	for (i = 0; i < AN_KIND_COUNT; i++)
		if (i != AN_KIND_KERNEL && r->copies[i].count)
			copy_cells(&t, 0, (enum an_kind)i, &r->copies[i], &col[0], &col[1]);
	ret = out_table_print(&t, f, OUT_TABLE, st);
	out_table_release(&t);
	return ret;
}

enum { NTIME = 8 };

static int print_kernel_table(FILE *f, const struct an_kern_result *r, size_t shown,
			      const struct out_style *st)
{
	static const char *const tname[NTIME] = {"TOTAL", "MEAN", "MEDIAN", "MIN", "MAX", "STD", "P90", "P99"};
	int by_fn = r->opts.by == AN_KERN_BY_FUNCTION, by_cfg = r->opts.by == AN_KERN_BY_CONFIG;
	const char *h[16];
	unsigned char right[16];
	char th[NTIME][32], b[NTIME + 1][48];
	struct out_tcol col[NTIME];
	struct out_table t;
	size_t i, k, nh = 0;
	int ret;

	for (k = 0; k < NTIME; k++)
		out_tcol_init(&col[k], st->unit);
	for (i = 0; i < shown; i++) {
		const struct an_kern_row *row = &r->rows[i];
		const double v[NTIME] = {row->total, row->mean, row->median, (double)row->min,
					 (double)row->max, row->std, (double)row->p90, (double)row->p99};

		for (k = 0; k < NTIME; k++)
			out_tcol_add(&col[k], v[k]);
	}
	out_tcols_share(col, NTIME);
	/* Numbers first, names last (as nsys stats does): long kernel names do not push them apart. */
	memset(right, 1, sizeof(right));
	h[nh++] = "SHARE";
	out_tcol_header(&col[0], th[0], sizeof(th[0]), tname[0]);
	h[nh++] = th[0];
	h[nh++] = "INSTANCES";
	for (k = 1; k < NTIME; k++) {
		out_tcol_header(&col[k], th[k], sizeof(th[k]), tname[k]);
		h[nh++] = th[k];
	}
	if (by_cfg)
		right[nh] = 0, h[nh++] = "CONFIG";
	if (by_fn) {
		right[nh] = 0, h[nh++] = "FUNCTION";
		h[nh++] = "PROGRAM";
		right[nh] = 0, h[nh++] = "OP";
	}
	right[nh] = 0, h[nh++] = "KERNEL";
	out_table_init(&t, nh, h, right);
	for (i = 0; i < shown; i++) {
		const struct an_kern_row *row = &r->rows[i];
		const double v[NTIME] = {row->total, row->mean, row->median, (double)row->min,
					 (double)row->max, row->std, (double)row->p90, (double)row->p99};

		for (k = 0; k < NTIME; k++)
			out_tcol_fmt(&col[k], b[k], sizeof(b[k]), v[k]);
		out_table_add(&t, "%.1f%%", row->share * 100);
		out_table_add(&t, "%s", b[0]);
		out_table_add(&t, "%zu", row->instances);
		for (k = 1; k < NTIME; k++)
			out_table_add(&t, "%s", b[k]);
		if (by_cfg)
			out_table_add(&t, "%s", row->cfg_state == AN_CFG_OK ? row->config
					       : row->cfg_state == AN_CFG_BAD ? "? (unparsable)" : "-");
		if (by_fn) {
			fmt_program(b[NTIME], sizeof(b[NTIME]), row->has_program_id, row->program_id);
			out_table_add(&t, "%s", row->function ? row->function : "-");
			out_table_add(&t, "%s", row->function && row->has_program_id ? b[NTIME] : "-");
			out_table_add(&t, "%s", row->op ? row->op : "-");
		}
		out_table_add(&t, "%s", row->name);
	}
	ret = out_table_print(&t, f, OUT_TABLE, st);
	out_table_release(&t);
	return ret;
}

/*
 * --slowest: the instances, slowest first. Machine modes: ns and ids exact;
 * the table: times in units that suit them, START from the input's first
 * GPU event (what export --device --from takes).
 */
static int print_slowest(FILE *f, enum out_mode mode, const struct an_kern_result *r, const struct out_style *st)
{
	static const char *const hm[] = {"duration_ns", "offset_ns", "start_ns", "input", "device", "stream",
					 "correlation_id", "function", "program_id", "kernel"};
	static const unsigned char right[] = {1, 1, 0, 0, 1, 0, 1, 0};
	const char *h[10];
	char th[2][32], b[2][48];
	struct out_tcol col[2];
	struct out_table t;
	size_t i;
	int machine = mode == OUT_CSV || mode == OUT_TSV, ret;

	out_tcol_init(&col[0], st ? st->unit : OUT_UNIT_AUTO);
	out_tcol_init(&col[1], st ? st->unit : OUT_UNIT_AUTO);
	for (i = 0; i < r->nslowest; i++) {
		out_tcol_add(&col[0], (double)r->slowest[i].dur_ps);
		out_tcol_add(&col[1], (double)r->slowest[i].offset_ps);
	}
	if (machine) {
		out_table_init(&t, 10, hm, NULL);
	} else {
		out_tcol_header(&col[0], th[0], sizeof(th[0]), "DURATION");
		out_tcol_header(&col[1], th[1], sizeof(th[1]), "START");
		h[0] = th[0], h[1] = th[1], h[2] = "DEVICE", h[3] = "STREAM", h[4] = "CORRELATION";
		h[5] = "FUNCTION", h[6] = "PROGRAM", h[7] = "KERNEL";
		out_table_init(&t, 8, h, right);
	}
	for (i = 0; i < r->nslowest; i++) {
		const struct an_kern_inst *x = &r->slowest[i];
		char corr[24], prog[24], clock[48];

		fmt_program(corr, sizeof(corr), x->has_correlation, x->correlation);
		fmt_program(prog, sizeof(prog), x->function && x->has_program_id, x->program_id);
		if (machine) {
			out_table_add(&t, "%.3f", (double)x->dur_ps / 1000.0);
			out_table_add(&t, "%.3f", (double)x->offset_ps / 1000.0);
			fmt_clock(clock, sizeof(clock), x);
			out_table_add(&t, "%s", clock);
			out_table_add(&t, "%s", x->input);
		} else {
			out_tcol_fmt(&col[0], b[0], sizeof(b[0]), (double)x->dur_ps);
			out_tcol_fmt(&col[1], b[1], sizeof(b[1]), (double)x->offset_ps);
			out_table_add(&t, "%s", b[0]);
			out_table_add(&t, "%s", b[1]);
		}
		out_table_add(&t, "%s", x->device);
		out_table_add(&t, "%s", x->stream);
		out_table_add(&t, "%s", machine || x->has_correlation ? corr : "-");
		out_table_add(&t, "%s", x->function ? x->function : machine ? "" : "-");
		out_table_add(&t, "%s", machine || (x->function && x->has_program_id) ? prog : "-");
		out_table_add(&t, "%s", x->name);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (!ret && !machine && !r->nslowest && r->kernel_events)
		fprintf(f, "no kernel instance to list: summary files keep none (give the traces)\n");
	if (!ret && !machine)
		fprintf(f, "\n%zu slowest of %zu kernel instance%s on %zu device%s in %zu input%s; START from each "
			"input's first event on the GPU stream lines (export --device selecting the same planes "
			"takes it in --from/--to)\n", r->nslowest, r->kernel_events, PLURAL(r->kernel_events),
			r->devices, PLURAL(r->devices), r->inputs, PLURAL(r->inputs));
	return ret;
}

static int print_table(FILE *f, const struct an_kern_result *r, const struct out_kern_opts *o,
		       const struct out_style *st)
{
	size_t shown = rows_shown(r, o), k;
	char b[3][48];
	int any_copy = r->copy_events > 0;

	if (!o->copies) {
		if (r->nrows && print_kernel_table(f, r, shown, st))
			return -1;
		if (!r->nrows)
			fprintf(f, "no kernels (only copies and memsets) on the selected devices\n");
	}
	if (any_copy) {
		if (!o->copies)
			fputc('\n', f);
		if (print_copies(f, r, st))
			return -1;
	} else if (o->copies) {
		fprintf(f, "no copies or memsets on the selected devices\n");
	}
	out_fmt_time(b[0], sizeof(b[0]), r->kernel_ps, st->unit);
	out_fmt_time(b[1], sizeof(b[1]), (double)r->kernel_busy_ps, st->unit);
	fprintf(f, "\n%zu kernel instance%s", r->kernel_events, PLURAL(r->kernel_events));
	if (r->opts.by == AN_KERN_BY_FUNCTION)
		fprintf(f, " in %zu function%s", r->nfns, PLURAL(r->nfns));
	else
		fprintf(f, " in %zu row%s", r->nrows, PLURAL(r->nrows));
	fprintf(f, " on %zu device%s in %zu input%s; kernel time %s, busy %s (union over streams)",
		r->devices, PLURAL(r->devices), r->inputs, PLURAL(r->inputs), b[0], b[1]);
	if (r->copy_events)
		fprintf(f, "; %zu cop%s and memset%s", r->copy_events, r->copy_events == 1 ? "y" : "ies",
			PLURAL(r->copy_events));
	if (r->tensor_core_ps > 0)
		fprintf(f, "; %.1f%% of kernel time on tensor cores (by kernel name)",
			r->kernel_ps > 0 ? r->tensor_core_ps / r->kernel_ps * 100 : 0.0);
	if (shown < r->nrows) {
		double rest = 0;

		for (k = shown; k < r->nrows; k++)
			rest += r->rows[k].total;
		out_fmt_time(b[2], sizeof(b[2]), rest, st->unit);
		fprintf(f, "; %zu more row%s (%s, %.1f%%) not shown", r->nrows - shown, PLURAL(r->nrows - shown),
			b[2], r->kernel_ps > 0 ? rest / r->kernel_ps * 100 : 0.0);
	}
	if (r->stray_events)
		fprintf(f, "; %zu event%s with a stray end left out", r->stray_events, PLURAL(r->stray_events));
	if (r->other_lines)
		fprintf(f, "; %zu derived line%s not counted", r->other_lines, PLURAL(r->other_lines));
	fprintf(f, "\n");
	return 0;
}

int out_kernels(FILE *f, enum out_mode mode, const struct an_kern_result *r,
		const struct out_kern_opts *o, const struct xp_notes *notes, const struct out_style *st)
{
	if (r->opts.slowest && mode != OUT_JSON)
		return print_slowest(f, mode, r, st);
	switch (mode) {
	case OUT_JSON:
		return print_json(f, r, o, notes);
	case OUT_CSV:
	case OUT_TSV:
		return print_machine(f, mode, r, o);
	default:
		return print_table(f, r, o, st);
	}
}
