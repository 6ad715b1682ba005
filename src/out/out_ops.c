/* SPDX-License-Identifier: Apache-2.0 */
#include "out_ops.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out_json.h"
#include "out_scope.h"

#define PLURAL(n) ((n) == 1 ? "" : "s")

static const char *sort_name(enum an_ops_sort s)
{
	return s == AN_OPS_SORT_SELF ? "self" : s == AN_OPS_SORT_FLOPS ? "flops"
	       : s == AN_OPS_SORT_BYTES ? "bytes" : "time";
}

/* Whether the rows shown are groups of ops (categories, source lines or framework ops), not ops. */
static int grouped(const struct an_ops_result *r)
{
	return r->opts.by_category || r->opts.by_source || r->opts.by_framework;
}

/* The rows shown: by framework op, by source line, by category or per op. */
static const struct an_op_row *shown(const struct an_ops_result *r, size_t *n)
{
	*n = r->opts.by_framework ? r->nframeworks : r->opts.by_source ? r->nsources
	     : r->opts.by_category ? r->ncats : r->nrows;
	return r->opts.by_framework ? r->frameworks : r->opts.by_source ? r->sources
	       : r->opts.by_category ? r->cats : r->rows;
}

static const char *by_name(const struct an_ops_result *r)
{
	return r->opts.by_framework ? "framework" : r->opts.by_source ? "source"
	       : r->opts.by_category ? "category" : "op";
}

/* Whether row i is within --top of its line kind (rows are grouped by line kind). */
static int within_top(const struct an_op_row *rows, size_t i, size_t top)
{
	size_t k = 0;

	if (!top)
		return 1;
	while (k < i && k < top && rows[i - k - 1].line == rows[i].line)
		k++;
	return k < top;
}

static void json_sum(cJSON *o, const char *name, const struct an_sum *s, size_t occ)
{
	out_json_add_u64_if(o, name, an_sum_known(s, occ), s->v);
}

static void json_num(cJSON *o, const char *name, double v)
{
	if (v >= 0 && isfinite(v))
		cJSON_AddNumberToObject(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

/* A row of ops (cat 0), of a category or source line (1), or of a framework op (2: category its type). */
static void json_row(cJSON *o, const struct an_op_row *row, int cat)
{
	cJSON_AddStringToObject(o, "name", row->name);
	cJSON_AddStringToObject(o, "line", an_op_line_name(row->line));
	cJSON_AddBoolToObject(o, "async", row->line == AN_OP_ASYNC);
	out_json_add_str_or_null(o, cat == 2 ? "type" : "category", row->category);
	if (!cat) {
		out_json_add_str_or_null(o, "hlo", row->hlo);
		out_json_add_str_or_null(o, "module", row->module);
		out_json_add_id(o, "program_id", row->has_program_id, row->program_id);
	}
	cJSON_AddNumberToObject(o, "occurrences", (double)row->occurrences);
	if (an_op_calls_known(row))
		cJSON_AddNumberToObject(o, "calls", (double)row->calls);
	else
		cJSON_AddNullToObject(o, "calls");
	out_json_add_str_or_null(o, "calls_from", an_op_calls_from(row));
	out_json_add_ns(o, "total_ns", (double)row->total_ps);
	out_json_add_ns(o, "self_ns", (double)row->self_ps);
	cJSON_AddNumberToObject(o, "mean_ns", row->occurrences ? (double)row->total_ps / row->occurrences / 1000.0 : 0);
	if (an_op_calls_known(row))
		cJSON_AddNumberToObject(o, "call_mean_ns", an_op_call_mean_ps(row) / 1000.0);
	else
		cJSON_AddNullToObject(o, "call_mean_ns");
	cJSON_AddNumberToObject(o, "share", row->share);
	json_sum(o, "flops", &row->flops, row->occurrences);
	json_sum(o, "model_flops", &row->model_flops, row->occurrences);
	json_sum(o, "bytes_accessed", &row->bytes, row->occurrences);
	json_num(o, "flops_per_s", an_op_flops_per_s(row));
	json_num(o, "bytes_per_s", an_op_bytes_per_s(row));
	json_num(o, "intensity", an_op_intensity(row));
	out_json_add_str_or_null(o, "bound_by", an_bound_name(row->bound));
	out_json_add_str_or_null(o, "cost_from", an_op_cost_from(row));
}

/* "name": the n rows (categories when cat) within top of their line kind. */
static void add_rows_json(cJSON *doc, const char *name, const struct an_op_row *rows, size_t n, size_t top,
			  int cat)
{
	cJSON *a = cJSON_AddArrayToObject(doc, name), *o;
	size_t i;

	for (i = 0; a && i < n; i++) {
		if (!within_top(rows, i, top))
			continue;
		if (!(o = out_json_push_object(a)))
			break;
		json_row(o, &rows[i], cat);
	}
}

static int print_json(FILE *f, const struct an_ops_result *r, size_t top, const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("ops"), *a, *lines, *o;
	size_t i, k;

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "sort", sort_name(r->opts.sort));
	cJSON_AddStringToObject(doc, "by", by_name(r));
	if (top)
		cJSON_AddNumberToObject(doc, "top", (double)top);
	else
		cJSON_AddNullToObject(doc, "top");
	cJSON_AddNumberToObject(doc, "inputs", (double)r->inputs);
	lines = cJSON_AddArrayToObject(doc, "lines");
	for (k = 0; lines && k < AN_OP_LINES; k++) {
		if (!r->events[k])
			continue;
		if (!(o = out_json_push_object(lines)))
			break;
		cJSON_AddStringToObject(o, "line", an_op_line_name((enum an_op_line)k));
		cJSON_AddNumberToObject(o, "events", (double)r->events[k]);
		cJSON_AddNumberToObject(o, "ops_count", (double)r->rows_in[k]);
		out_json_add_ns(o, "total_ns", (double)r->total_ps[k]);
		out_json_add_ns(o, "self_ns", (double)r->self_ps[k]);
	}
	a = cJSON_AddArrayToObject(doc, "devices");
	for (i = 0; i < r->ndevices && (o = out_json_push_object(a)); i++) {
		const struct an_ops_device *d = &r->devices[i];
		size_t nev;

		cJSON_AddStringToObject(o, "name", d->name);
		out_json_add_str_or_null(o, "chip", d->chip);
		cJSON_AddStringToObject(o, "peak_source", an_peak_src_name(d->peak_src));
		json_num(o, "peak_flops_per_s", d->peak_src ? d->peak_flops : -1);
		json_num(o, "peak_bytes_per_s", d->peak_src ? d->peak_bw : -1);
		for (k = 0, nev = 0; k < AN_OP_LINES; k++)
			nev += d->events[k];
		cJSON_AddNumberToObject(o, "op_events", (double)nev);
		cJSON_AddNumberToObject(o, "stray_end_events", (double)d->stray_events);
		cJSON_AddNumberToObject(o, "partial_overlaps", (double)d->partial_overlaps);
		cJSON_AddNumberToObject(o, "odd_values", (double)d->odd_values);
		cJSON_AddNumberToObject(o, "kernels_without_hlo_op", (double)d->kernels_no_op);
	}
	cJSON_AddNumberToObject(doc, "stray_end_events", (double)r->stray_events);
	cJSON_AddNumberToObject(doc, "partial_overlaps", (double)r->partial_overlaps);
	cJSON_AddNumberToObject(doc, "odd_values", (double)r->odd_values);
	cJSON_AddNumberToObject(doc, "overflowed_sums", (double)r->overflows);
	cJSON_AddNumberToObject(doc, "partial_sums", (double)r->partial_sums);
	cJSON_AddNumberToObject(doc, "kernels_without_hlo_op", (double)r->kernels_no_op);
	cJSON_AddNumberToObject(doc, "calls_from_host", (double)r->calls_host);
	cJSON_AddNumberToObject(doc, "aggregated_occurrences", (double)r->aggregated);
	out_ops_hlo_json(doc, r);
	out_ops_cost_json(doc, r);
	add_rows_json(doc, "ops", r->rows, r->nrows, grouped(r) ? 0 : top, 0);
	if (r->opts.by_category)
		add_rows_json(doc, "categories", r->cats, r->ncats, top, 1);
	if (r->opts.by_source)
		add_rows_json(doc, "sources", r->sources, r->nsources, top, 1);
	if (r->opts.by_framework) {
		add_rows_json(doc, "frameworks", r->frameworks, r->nframeworks, top, 2);
		add_rows_json(doc, "framework_types", r->fwtypes, r->nfwtypes, top, 1);
	}
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

static void fmt_u64_or_empty(char *b, size_t n, const struct an_sum *s, size_t occ)
{
	if (an_sum_known(s, occ))
		snprintf(b, n, "%" PRIu64, s->v);
	else
		b[0] = '\0';
}

static void fmt_num_or_empty(char *b, size_t n, double v)
{
	if (v >= 0 && isfinite(v))
		snprintf(b, n, "%.6g", v);
	else
		b[0] = '\0';
}

static int print_machine(FILE *f, enum out_mode mode, const struct an_ops_result *r, size_t top)
{
	const char *h[] = {"line", "name", "category", "program_id", "module", "occurrences",
					"total_ns", "self_ns", "mean_ns", "share", "flops", "model_flops",
					"bytes_accessed", "flops_per_s", "bytes_per_s", "intensity", "bound_by",
					"hlo", "calls", "cost_from", "calls_from", "call_mean_ns"};
	const struct an_op_row *rows;
	struct out_table t;
	size_t i, n;
	int ret, cat = grouped(r);

	rows = shown(r, &n);
	if (r->opts.by_framework)
		h[2] = "type";	/* of the framework op */
	out_table_init(&t, sizeof(h) / sizeof(h[0]), h, NULL);
	for (i = 0; i < n; i++) {
		const struct an_op_row *row = &rows[i];
		char b[6][32];

		if (!within_top(rows, i, top))
			continue;
		if (row->has_program_id && !cat)
			snprintf(b[0], sizeof(b[0]), "%" PRIu64, row->program_id);
		else
			b[0][0] = '\0';
		fmt_u64_or_empty(b[1], sizeof(b[1]), &row->flops, row->occurrences);
		fmt_u64_or_empty(b[2], sizeof(b[2]), &row->model_flops, row->occurrences);
		fmt_u64_or_empty(b[3], sizeof(b[3]), &row->bytes, row->occurrences);
		out_table_add(&t, "%s", an_op_line_name(row->line));
		out_table_add(&t, "%s", row->name);
		out_table_add(&t, "%s", row->category ? row->category : "");
		out_table_add(&t, "%s", b[0]);
		out_table_add(&t, "%s", row->module && !cat ? row->module : "");
		out_table_add(&t, "%zu", row->occurrences);
		out_table_add(&t, "%.3f", (double)row->total_ps / 1000.0);
		out_table_add(&t, "%.3f", (double)row->self_ps / 1000.0);
		out_table_add(&t, "%.3f", row->occurrences ? (double)row->total_ps / row->occurrences / 1000.0 : 0);
		out_table_add(&t, "%.6f", row->share);
		out_table_add(&t, "%s", b[1]);
		out_table_add(&t, "%s", b[2]);
		out_table_add(&t, "%s", b[3]);
		fmt_num_or_empty(b[4], sizeof(b[4]), an_op_flops_per_s(row));
		out_table_add(&t, "%s", b[4]);
		fmt_num_or_empty(b[4], sizeof(b[4]), an_op_bytes_per_s(row));
		out_table_add(&t, "%s", b[4]);
		fmt_num_or_empty(b[4], sizeof(b[4]), an_op_intensity(row));
		out_table_add(&t, "%s", b[4]);
		out_table_add(&t, "%s", an_bound_name(row->bound) ? an_bound_name(row->bound) : "");
		out_table_add(&t, "%s", row->hlo && !cat ? row->hlo : "");
		if (an_op_calls_known(row))
			out_table_add(&t, "%zu", row->calls);
		else
			out_table_add(&t, "%s", "");
		out_table_add(&t, "%s", an_op_cost_from(row) ? an_op_cost_from(row) : "");
		out_table_add(&t, "%s", an_op_calls_from(row) ? an_op_calls_from(row) : "");
		if (an_op_calls_known(row))
			out_table_add(&t, "%.3f", an_op_call_mean_ps(row) / 1000.0);
		else
			out_table_add(&t, "%s", "");
	}
	ret = out_table_print(&t, f, mode, NULL);
	out_table_release(&t);
	return ret;
}

/* A count with an SI prefix and three significant digits ("1.34G"); "-" when unknown. */
static void fmt_si(char *b, size_t n, double v)
{
	static const char pre[] = " kMGTPEZY";
	size_t k = 0;

	if (!(v >= 0) || !isfinite(v)) {
		snprintf(b, n, "-");
		return;
	}
	while (v >= 999.5 && k + 1 < sizeof(pre) - 1) {
		v /= 1000;
		k++;
	}
	if (!k)
		snprintf(b, n, "%.0f", v);
	else
		snprintf(b, n, "%.*f%c", v < 9.995 ? 2 : v < 99.95 ? 1 : 0, v, pre[k]);
}

static void fmt_sum(char *b, size_t n, const struct an_sum *s, size_t occ)
{
	fmt_si(b, n, an_sum_known(s, occ) ? (double)s->v : -1);
}

/* Program ids of more than 10 digits (TPU fingerprints) show 7 digits and an ellipsis. */
static void fmt_program(char *b, size_t n, const struct an_op_row *row)
{
	int len;

	if (!row->has_program_id) {
		snprintf(b, n, "-");
		return;
	}
	len = snprintf(b, n, "%" PRIu64, row->program_id);
	if (len > 10 && n > 12)
		memcpy(b + 7, "\u2026", sizeof("\u2026"));
}

/* The TOTAL, SELF and MEAN times of a row. */
static void row_times(const struct an_op_row *row, double v[3])
{
	v[0] = (double)row->total_ps;
	v[1] = (double)row->self_ps;
	v[2] = row->occurrences ? (double)row->total_ps / row->occurrences : 0;
}

/* A rate or ratio with prec decimals; "-" where the analysis could not tell (negative). */
static void rate_cell(struct out_table *t, double v, int prec)
{
	if (v >= 0)
		out_table_add(t, "%.*f", prec, v);
	else
		out_table_add(t, "-");
}

/*
 * The table of line kind `line` of rows (the rows shown, or with types the
 * framework op types), the first top of them.
 */
static int print_one_table(FILE *f, const struct an_ops_result *r, const struct an_op_row *rows, size_t n,
			   int types, enum an_op_line line, size_t top, const struct out_style *st, size_t *shown_rows)
{
	int cat = grouped(r), fw = r->opts.by_framework && !types, ret, calls = 0;
	const char *h[18];
	unsigned char right[18];
	char th[4][32];
	struct out_tcol col[3];
	struct out_table t;
	size_t i, k, nh = 0;

	for (k = 0; k < 3; k++)
		out_tcol_init(&col[k], st->unit);
	for (i = 0; i < n; i++) {
		double v[3];

		if (rows[i].line != line || !within_top(rows, i, top))
			continue;
		row_times(&rows[i], v);
		for (k = 0; k < 3; k++)
			out_tcol_add(&col[k], v[k]);
		if (an_op_calls_known(&rows[i]))	/* its time per call, in MEAN's unit */
			out_tcol_add(&col[2], an_op_call_mean_ps(&rows[i]));
		calls |= an_op_calls_known(&rows[i]);
	}
	out_tcols_share(col, 3);
	out_tcol_header(&col[0], th[0], sizeof(th[0]), "TOTAL");
	out_tcol_header(&col[1], th[1], sizeof(th[1]), "SELF");
	out_tcol_header(&col[2], th[2], sizeof(th[2]), "MEAN");
	out_tcol_header(&col[2], th[3], sizeof(th[3]), "PER CALL");
	h[nh++] = types ? "TYPE" : fw ? "FRAMEWORK OP" : r->opts.by_source ? "SOURCE" : cat ? "CATEGORY"
		  : line == AN_OP_GPU ? "HLO OP" : "OP";
	if (fw)
		h[nh++] = "TYPE";
	if (!cat) {
		h[nh++] = line == AN_OP_GPU ? "MODULE" : "CATEGORY";
		h[nh++] = "PROGRAM";
	}
	/* names left; the program, the numbers and BOUND right */
	for (k = 0; k < nh; k++)
		right[k] = !strcmp(h[k], "PROGRAM");
	h[nh++] = "OCC";
	if (calls)	/* GPU kernels grouped into calls by their scope_range_id (an_op_row) */
		h[nh++] = "CALLS";
	h[nh++] = th[0];
	h[nh++] = th[1];
	h[nh++] = th[2];
	if (calls)	/* the time of a call: its kernels' total over its calls */
		h[nh++] = th[3];
	h[nh++] = "SHARE";
	h[nh++] = "FLOPS";
	h[nh++] = "BYTES";
	h[nh++] = "TFLOP/S";
	h[nh++] = "GB/S";
	h[nh++] = "FLOP/B";
	h[nh++] = "BOUND";
	for (k = (size_t)(fw ? 2 : cat ? 1 : 3); k < nh; k++)
		right[k] = 1;
	out_table_init(&t, nh, h, right);
	*shown_rows = 0;
	for (i = 0; i < n; i++) {
		const struct an_op_row *row = &rows[i];
		char b[48];
		double v[3];

		if (row->line != line || !within_top(rows, i, top))
			continue;
		(*shown_rows)++;
		out_table_add(&t, "%s", row->name);
		if (fw)
			out_table_add(&t, "%s", row->category ? row->category : "-");
		if (!cat) {
			if (line == AN_OP_GPU)
				out_table_add(&t, "%s", row->module ? row->module : "-");
			else
				out_table_add(&t, "%s", row->category ? row->category : "-");
			fmt_program(b, sizeof(b), row);
			out_table_add(&t, "%s", b);
		}
		out_table_add(&t, "%zu", row->occurrences);
		if (calls && an_op_calls_known(row))
			out_table_add(&t, "%zu", row->calls);
		else if (calls)
			out_table_add(&t, "%s", "-");
		row_times(row, v);
		for (k = 0; k < 3; k++)
			out_table_add_time(&t, &col[k], v[k]);
		if (calls)	/* "-" (not finite) where its calls are unknown */
			out_table_add_time(&t, &col[2], an_op_calls_known(row) ? an_op_call_mean_ps(row) : NAN);
		out_table_add(&t, "%.1f%%", row->share * 100);
		fmt_sum(b, sizeof(b), &row->flops, row->occurrences);
		out_table_add(&t, "%s", b);
		fmt_sum(b, sizeof(b), &row->bytes, row->occurrences);
		out_table_add(&t, "%s", b);
		rate_cell(&t, an_op_flops_per_s(row) / 1e12, 3);
		rate_cell(&t, an_op_bytes_per_s(row) / 1e9, 1);
		rate_cell(&t, an_op_intensity(row), 2);
		out_table_add(&t, "%s", an_bound_name(row->bound) ? an_bound_name(row->bound) : "-");
	}
	ret = out_table_print(&t, f, OUT_TABLE, st);
	out_table_release(&t);
	return ret;
}

/* A string from the file in a sentence: control characters and invalid UTF-8 as \xNN, as in tables. */
static void put_text(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	while (*s) {
		n = out_utf8_len(s);
		if (!n || *s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\x%02x", *s++);
			continue;
		}
		fwrite(s, 1, n, f);
		s += n;
	}
}

/* "peaks: plane stats on 3 devices (TPU v6 Lite: 918 TFLOP/s, 1638 GB/s); ..." */
static void print_peaks(FILE *f, const struct an_ops_result *r)
{
	size_t i, k, said = 0;

	for (i = 0; i < r->ndevices; i++) {
		const struct an_ops_device *d = &r->devices[i];
		size_t same = 0;

		/* one phrase per distinct (source, chip, peaks), counted at its first device */
		for (k = 0; k < i; k++)
			if (r->devices[k].peak_src == d->peak_src && r->devices[k].peak_flops == d->peak_flops &&
			    r->devices[k].peak_bw == d->peak_bw &&
			    !strcmp(r->devices[k].chip ? r->devices[k].chip : "", d->chip ? d->chip : ""))
				break;
		if (k < i)
			continue;
		for (k = i; k < r->ndevices; k++)
			same += r->devices[k].peak_src == d->peak_src && r->devices[k].peak_flops == d->peak_flops &&
				r->devices[k].peak_bw == d->peak_bw &&
				!strcmp(r->devices[k].chip ? r->devices[k].chip : "", d->chip ? d->chip : "");
		fprintf(f, "%s", said++ ? "; " : "peaks: ");
		if (d->peak_src == AN_PEAK_NONE) {
			fprintf(f, "none known for %zu device%s", same, PLURAL(same));
			if (d->chip) {
				fprintf(f, " (");
				put_text(f, d->chip);
				fprintf(f, ")");
			}
			fprintf(f, " (no bound)");
		} else {
			fprintf(f, "%s on %zu device%s (", d->peak_src == AN_PEAK_PLANE ? "plane stats"
				: d->peak_src == AN_PEAK_DERIVED ? "derived from the plane's cores x clock x its "
								    "architecture's bf16 FLOPs per cycle, and its bandwidth,"
				: "the built-in chip table", same, PLURAL(same));
			put_text(f, d->chip ? d->chip : "?");
			fprintf(f, ": %.0f TFLOP/s, %.0f GB/s HBM)", d->peak_flops / 1e12, d->peak_bw / 1e9);
		}
	}
	if (said)
		fprintf(f, "\n");
}

static int print_table(FILE *f, const struct an_ops_result *r, size_t top,
		       const struct out_style *st)
{
	size_t k, nshown;
	int first = 1;

	for (k = 0; k < AN_OP_LINES; k++) {
		char tot[48], self[48];
		const struct an_op_row *g;
		size_t ng;

		if (!r->rows_in[k])
			continue;
		if (!first)
			fprintf(f, "\n");
		first = 0;
		if (k == AN_OP_ASYNC)
			fprintf(f, "Async XLA Ops (start to done, overlapping other work: self time is total time)\n");
		if (k == AN_OP_SC)
			fprintf(f, "Sparse Core Ops (the TPUs' SparseCores, each a device of its own)\n");
		g = shown(r, &ng);
		if (print_one_table(f, r, g, ng, 0, (enum an_op_line)k, top, st, &nshown))
			return -1;
		out_fmt_time(tot, sizeof(tot), (double)r->total_ps[k], st->unit);
		out_fmt_time(self, sizeof(self), (double)r->self_ps[k], st->unit);
		fprintf(f, "\n%zu %s event%s of %zu op%s", r->events[k],
			k == AN_OP_GPU ? "GPU kernel" : an_op_line_name((enum an_op_line)k),
			PLURAL(r->events[k]), r->rows_in[k], PLURAL(r->rows_in[k]));
		if (grouped(r)) {
			size_t i, nc = 0;

			for (i = 0; i < ng; i++)
				nc += g[i].line == k;
			if (r->opts.by_framework)
				fprintf(f, " of %zu framework op%s", nc, PLURAL(nc));
			else if (r->opts.by_source)
				fprintf(f, " at %zu source line%s", nc, PLURAL(nc));
			else
				fprintf(f, " in %zu categor%s", nc, nc == 1 ? "y" : "ies");
		}
		fprintf(f, "; total %s, self %s", tot, self);
		if (top && !grouped(r) && nshown < r->rows_in[k])
			fprintf(f, "; top %zu shown", nshown);
		fprintf(f, "\n");
		if (r->opts.by_framework) {	/* and by the ops' types */
			fprintf(f, "\n");
			if (print_one_table(f, r, r->fwtypes, r->nfwtypes, 1, (enum an_op_line)k, top, st, &nshown))
				return -1;
			fprintf(f, "\n");
		}
	}
	fprintf(f, "%zu device%s in %zu input%s; sorted by %s", r->ndevices, PLURAL(r->ndevices), r->inputs,
		PLURAL(r->inputs), sort_name(r->opts.sort));
	if (r->stray_events)
		fprintf(f, "; %zu event%s with a stray end left out", r->stray_events, PLURAL(r->stray_events));
	if (r->partial_overlaps)
		fprintf(f, "; %zu op%s partly overlap%s another", r->partial_overlaps, PLURAL(r->partial_overlaps),
			r->partial_overlaps == 1 ? "s" : "");
	if (r->kernels_no_op)
		fprintf(f, "; %zu kernel%s without an hlo_op%s left out", r->kernels_no_op, PLURAL(r->kernels_no_op),
			an_ops_no_op_what(r));
	if (r->aggregated)
		fprintf(f, "; %zu occurrence%s from aggregated events (a count and a total each, in rows of no "
			"program)", r->aggregated, PLURAL(r->aggregated));
	if (r->calls_host)
		fprintf(f, "; calls of %zu op%s from the host events that launched %s kernels (no scope_range_id)",
			r->calls_host, PLURAL(r->calls_host), r->calls_host == 1 ? "its" : "their");
	fprintf(f, "\n");
	print_peaks(f, r);
	out_ops_cost_line(f, r);
	out_ops_hlo_line(f, r);
	return 0;
}

int out_ops(FILE *f, enum out_mode mode, const struct an_ops_result *r, size_t top,
	    const struct xp_notes *notes, const struct out_style *st)
{
	if (r->opts.by_scope)
		return out_ops_scopes(f, mode, r, top, notes, st);
	switch (mode) {
	case OUT_JSON:
		return print_json(f, r, top, notes);
	case OUT_CSV:
	case OUT_TSV:
		return print_machine(f, mode, r, top);
	default:
		return print_table(f, r, top, st);
	}
}
